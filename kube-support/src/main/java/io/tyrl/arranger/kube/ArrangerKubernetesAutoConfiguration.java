package io.tyrl.arranger.kube;

import io.micrometer.core.instrument.MeterRegistry;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.EventRecorderProperties;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.kube.leader.LeaderElectionProperties;
import io.tyrl.arranger.kube.leader.LeadershipListener;
import io.tyrl.arranger.kube.metrics.RestClientMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * The Kubernetes edge both services share: clients, status patching, the Event recorder, readiness
 * and Lease leader election (the write fence).
 */
@AutoConfiguration
@EnableConfigurationProperties({
  KubernetesClientProperties.class,
  LeaderElectionProperties.class,
  EventRecorderProperties.class,
  WatchScope.class
})
public class ArrangerKubernetesAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  KubernetesClients kubernetesClients(
      KubernetesClientProperties properties, MeterRegistry meterRegistry) {
    return KubernetesClients.create(properties, List.of(new RestClientMetrics(meterRegistry)));
  }

  @Bean
  @ConditionalOnMissingBean
  StatusPatcher statusPatcher(
      KubernetesClients clients,
      LeaderElection leaderElection,
      LeaderElectionProperties leaderElectionProperties) {
    // Retries end before the renew deadline, hence before the lease could pass to another replica.
    return new StatusPatcher(
        clients.requests(),
        Backoff.DEFAULT,
        leaderElection,
        leaderElectionProperties.renewDeadline());
  }

  /**
   * One recorder per service; its component is the application's name (arranger-scheduler,
   * arranger-controller).
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  EventRecorder eventRecorder(
      KubernetesClients clients,
      LeaderElection leaderElection,
      LeaderElectionProperties leaderElectionProperties,
      EventRecorderProperties properties,
      MeterRegistry meterRegistry,
      @Value("${spring.application.name:arranger}") String component) {
    return new EventRecorder(
        clients.requests(),
        component,
        leaderElectionProperties.effectiveIdentity(),
        leaderElection,
        properties,
        meterRegistry,
        Clock.systemUTC());
  }

  @Bean
  @ConditionalOnMissingBean
  ApiServerReadiness apiServerReadiness(
      KubernetesClients clients,
      ObjectProvider<ReadinessCheck> checks,
      ApplicationEventPublisher events,
      ApplicationAvailability availability,
      @Value("${arranger.kubernetes.readiness-period:2s}") Duration period) {
    return new ApiServerReadiness(
        clients.probes(), checks.orderedStream().toList(), events, availability, period);
  }

  @Bean
  @ConditionalOnMissingBean
  LeaderElection leaderElection(
      LeaderElectionProperties properties,
      KubernetesClients clients,
      KubernetesClientProperties clientProperties,
      ObjectProvider<LeadershipListener> listeners,
      MeterRegistry meterRegistry,
      @Value("${spring.application.name:arranger}") String service) {
    return new LeaderElection(
        properties,
        clients.requests(),
        () -> listeners.orderedStream().toList(),
        meterRegistry,
        service,
        clientProperties.requestTimeout());
  }
}
