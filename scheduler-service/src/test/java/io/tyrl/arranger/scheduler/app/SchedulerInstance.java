package io.tyrl.arranger.scheduler.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.testing.ControlPlane;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One scheduler-service replica, started in this JVM against the test control plane. */
final class SchedulerInstance implements AutoCloseable {

  private final ConfigurableApplicationContext context;

  private SchedulerInstance(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /**
   * @param lease a lease name of the test's own, so that tests do not elect each other
   * @param configMap a ConfigMap name of the test's own
   */
  static SchedulerInstance start(
      ControlPlane controlPlane,
      String identity,
      String lease,
      String configMap,
      Map<String, String> extra) {
    try {
      Path kubeconfig = Files.createTempFile("scheduler-" + identity, ".kubeconfig");
      controlPlane.writeKubeconfig(kubeconfig, ControlPlane.ADMIN);
      Map<String, String> properties = new LinkedHashMap<>();
      properties.put("server.port", "0");
      properties.put("arranger.kubernetes.kubeconfig", kubeconfig.toString());
      properties.put("arranger.kubernetes.readiness-period", "500ms");
      properties.put("arranger.leader-election.identity", identity);
      properties.put("arranger.leader-election.lease-name", lease);
      properties.put("arranger.leader-election.lease-namespace", "default");
      properties.put("arranger.leader-election.lease-duration", "4s");
      properties.put("arranger.kubernetes.request-timeout", "2s");
      properties.put("arranger.leader-election.renew-deadline", "3s");
      properties.put("arranger.leader-election.retry-period", "500ms");
      properties.put("arranger.scheduler.period", "300ms");
      properties.put("arranger.scheduler.config-map.namespace", "default");
      properties.put("arranger.scheduler.config-map.name", configMap);
      properties.putAll(extra);
      // As command-line arguments, so that they win over application.yaml.
      String[] arguments =
          properties.entrySet().stream()
              .map(e -> "--" + e.getKey() + "=" + e.getValue())
              .toArray(String[]::new);
      return new SchedulerInstance(
          new SpringApplicationBuilder(SchedulerApplication.class).run(arguments));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** One of the replica's beans, to look at what it keeps in memory. */
  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  boolean isLeader() {
    return context.getBean(LeaderElection.class).isLeader();
  }

  double counter(String name, String... tags) {
    var counter = context.getBean(MeterRegistry.class).find(name).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }

  /** Cycles completed so far (writes included). */
  long cycles() {
    var timer =
        context
            .getBean(MeterRegistry.class)
            .find("arranger.scheduler.e2e.scheduling.duration")
            .timer();
    return timer == null ? 0 : timer.count();
  }

  /**
   * The service's own port: the operator's window, and the actuator unless it has a port of its
   * own.
   */
  int port() {
    return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
  }

  String get(String path) {
    String port = context.getEnvironment().getRequiredProperty("local.server.port");
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                  HttpResponse.BodyHandlers.ofString());
      return response.statusCode() + " " + response.body();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    context.close();
  }
}
