package io.tyrl.arranger.scheduler.app;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.tyrl.arranger.kube.DaemonThreads;
import io.tyrl.arranger.kube.InformerFactoryLifecycle;
import io.tyrl.arranger.kube.KubernetesClients;
import io.tyrl.arranger.kube.ReadinessCheck;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.WatchScope;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.kube.metrics.InformerObjects;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CyclePacing;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.kube.AssumedStatuses;
import io.tyrl.arranger.scheduler.kube.ClusterInformers;
import io.tyrl.arranger.scheduler.kube.ConfigMapWatcher;
import io.tyrl.arranger.scheduler.kube.QueueStatusWriter;
import io.tyrl.arranger.scheduler.kube.QueueUsageKeeper;
import io.tyrl.arranger.scheduler.kube.ScheduleStatusWriter;
import io.tyrl.arranger.scheduler.kube.SchedulerConfigurationSource;
import io.tyrl.arranger.scheduler.kube.SchedulerMetrics;
import io.tyrl.arranger.scheduler.kube.SchedulingLoop;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.view.LastCycle;
import io.tyrl.arranger.scheduler.web.ViewSecurity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SchedulerProperties.class)
@Import(ViewSecurity.class)
class SchedulerWiring {

  @Bean
  SchedulerMetrics schedulerMetrics(MeterRegistry registry) {
    return new SchedulerMetrics(registry);
  }

  @Bean
  Scheduler scheduler(SchedulerMetrics metrics) {
    return new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), metrics);
  }

  /**
   * A configuration given in Spring properties, inline or by location, must be valid: the service
   * refuses to start otherwise.
   */
  @Bean
  SchedulerConfigurationSource schedulerConfigurationSource(
      Scheduler scheduler, SchedulerProperties properties, ResourceLoader resources) {
    SchedulerConfigurationParser parser = new SchedulerConfigurationParser(scheduler.vocabulary());
    if (properties.configuration() != null && !properties.configuration().isBlank()) {
      return new SchedulerConfigurationSource(
          parser,
          parser.parse(properties.configuration()),
          properties.configuration(),
          "Spring property arranger.scheduler.configuration");
    }
    String location = properties.configurationLocation();
    if (location != null && !location.isBlank()) {
      String text = read(resources, location);
      return new SchedulerConfigurationSource(
          parser,
          parser.parse(text),
          text,
          "arranger.scheduler.configuration-location " + location);
    }
    return new SchedulerConfigurationSource(
        parser,
        DefaultSchedulerConfiguration.parse(scheduler.vocabulary()),
        DefaultSchedulerConfiguration.YAML,
        "built-in default");
  }

  private static String read(ResourceLoader resources, String location) {
    Resource resource = resources.getResource(location);
    if (!resource.exists()) {
      throw new IllegalArgumentException(
          "arranger.scheduler.configuration-location " + location + " does not exist");
    }
    try {
      return resource.getContentAsString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read arranger.scheduler.configuration-location " + location, e);
    }
  }

  @Bean
  SharedInformerFactory informerFactory(KubernetesClients clients) {
    return new SharedInformerFactory(clients.informers());
  }

  @Bean
  InformerFactoryLifecycle informerFactoryLifecycle(SharedInformerFactory informerFactory) {
    return new InformerFactoryLifecycle(informerFactory);
  }

  @Bean
  ClusterInformers clusterInformers(
      SharedInformerFactory informerFactory,
      KubernetesClients clients,
      SchedulerProperties properties,
      WatchScope scope,
      MeterRegistry registry) {
    ClusterInformers informers =
        new ClusterInformers(informerFactory, clients.informers(), properties.resync(), scope);
    informers
        .cachedObjects()
        .forEach((resource, cached) -> InformerObjects.register(registry, resource, cached));
    return informers;
  }

  @Bean
  InformerFactoryLifecycle queueInformerFactoryLifecycle(ClusterInformers clusterInformers) {
    List<SharedInformerFactory> factories = new ArrayList<>(clusterInformers.namespacedFactories());
    factories.add(clusterInformers.queueFactory());
    return new InformerFactoryLifecycle(factories);
  }

  @Bean
  @ConditionalOnProperty(name = "arranger.scheduler.config-map.enabled", matchIfMissing = true)
  ConfigMapWatcher configMapWatcher(
      SharedInformerFactory informerFactory,
      KubernetesClients clients,
      SchedulerProperties properties,
      SchedulerConfigurationSource source) {
    SchedulerProperties.ConfigMapSource configMap = properties.configMap();
    return new ConfigMapWatcher(
        informerFactory,
        clients.informers(),
        configMap.namespace(),
        configMap.name(),
        configMap.key(),
        source,
        properties.resync());
  }

  @Bean(destroyMethod = "shutdownNow")
  ExecutorService statusWriters(SchedulerProperties properties) {
    return DaemonThreads.fixedPool("status-writer", properties.statusWriters());
  }

  @Bean
  AssumedStatuses assumedStatuses(SchedulerProperties properties) {
    return new AssumedStatuses(properties.assumeTtl());
  }

  @Bean
  ScheduleStatusWriter scheduleStatusWriter(
      StatusPatcher patcher,
      KubernetesClients clients,
      ExecutorService statusWriters,
      AssumedStatuses assumedStatuses,
      EventRecorder eventRecorder,
      SchedulerProperties properties,
      SchedulerMetrics metrics) {
    ScheduleStatusWriter writer =
        new ScheduleStatusWriter(
            patcher,
            clients.requests(),
            statusWriters,
            assumedStatuses,
            eventRecorder,
            properties.eventRepeatInterval(),
            properties.statusWriteBacklog(),
            metrics::statusWriteFinished);
    metrics.watchWriter(writer);
    return writer;
  }

  /**
   * Queue status writes have threads of their own: the cycle waits for them (a few, and only on a
   * change), and they must not queue behind a burst of job writes.
   */
  @Bean(destroyMethod = "shutdownNow")
  ExecutorService queueStatusWriters() {
    return DaemonThreads.fixedPool("queue-status-writer", 2);
  }

  @Bean
  QueueStatusWriter queueStatusWriter(
      StatusPatcher patcher, ExecutorService queueStatusWriters, EventRecorder eventRecorder) {
    return new QueueStatusWriter(patcher, queueStatusWriters, eventRecorder);
  }

  @Bean
  QueueUsageKeeper queueUsageKeeper(
      StatusPatcher patcher, ExecutorService queueStatusWriters, SchedulerProperties properties) {
    return new QueueUsageKeeper(patcher, queueStatusWriters, properties.usageWriteInterval());
  }

  /**
   * The first cycle waits for every informer and, when a ConfigMap is followed, for its
   * configuration.
   */
  @Bean
  SchedulingLoop schedulingLoop(
      ClusterInformers informers,
      ObjectProvider<ConfigMapWatcher> configMapWatcher,
      Scheduler scheduler,
      SchedulerConfigurationSource source,
      ScheduleStatusWriter writer,
      QueueStatusWriter queueStatusWriter,
      QueueUsageKeeper queueUsageKeeper,
      AssumedStatuses assumedStatuses,
      LeaderElection leaderElection,
      SchedulerMetrics metrics,
      KubernetesClients clients,
      SchedulerProperties properties,
      LastCycle lastCycle) {
    List<ReadinessCheck> syncedFirst = new ArrayList<>();
    syncedFirst.add(informers);
    configMapWatcher.ifAvailable(syncedFirst::add);
    SchedulingLoop loop =
        new SchedulingLoop(
            informers,
            scheduler,
            source,
            writer,
            queueStatusWriter,
            queueUsageKeeper,
            assumedStatuses,
            syncedFirst,
            leaderElection,
            metrics,
            clients.requests(),
            new CyclePacing(
                properties.period(), properties.cycleOnChange(), properties.minCycleInterval()),
            Clock.systemUTC(),
            lastCycle);
    informers.onChangeThatMayPlace(loop::changeSeen);
    return loop;
  }

  @Bean
  LastCycle lastCycle() {
    return new LastCycle();
  }

  @Bean
  SchedulerConfigurationEndpoint schedulerConfigurationEndpoint(
      SchedulerConfigurationSource source) {
    return new SchedulerConfigurationEndpoint(source);
  }

  /**
   * Shows the configuration in force and the last refused one (details for authorized callers; the
   * same is at /actuator/schedulerconfiguration); a refusal does not make the service unhealthy.
   */
  @Bean
  HealthIndicator schedulerConfigurationHealthIndicator(SchedulerConfigurationSource source) {
    return () -> {
      SchedulerConfigurationSource.Applied applied = source.applied();
      Health.Builder health =
          Health.up()
              .withDetail("origin", applied.origin())
              .withDetail("since", applied.since().toString())
              .withDetail(
                  "actions",
                  applied.configuration().actions().stream().map(a -> a.name()).toList());
      source
          .lastRefusal()
          .ifPresent(
              refusal ->
                  health
                      .withDetail("refused", refusal.origin() + ": " + refusal.message())
                      .withDetail("refusedAt", refusal.at().toString()));
      return health.build();
    };
  }
}
