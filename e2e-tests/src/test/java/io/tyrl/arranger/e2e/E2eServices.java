package io.tyrl.arranger.e2e;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the fault-injection ITs share: a system namespace with the chart's RBAC, a jobs namespace, a
 * test's own labelled simulated nodes, and the services as replica sets of processes from their
 * jars under the chart's identities, with leases in the system namespace.
 */
final class E2eServices {

  static final String NODE_LABEL = "arranger-e2e";

  /** The scheduler's properties for the configuration with preempt and reclaim on. */
  private static final Map<String, String> PREEMPT_RECLAIM =
      Map.of(
          "arranger.scheduler.configuration-location",
          "classpath:scheduler-configurations/preempt-reclaim.yaml");

  static final List<String> JVM_OPTIONS =
      List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final ControlPlane controlPlane;
  private final ApiClient admin;
  private final String systemNamespace;
  private final Path work;
  private final Path root = Path.of(System.getProperty("arranger.projectRoot"));

  private E2eServices(
      ControlPlane controlPlane, ApiClient admin, String systemNamespace, Path work) {
    this.controlPlane = controlPlane;
    this.admin = admin;
    this.systemNamespace = systemNamespace;
    this.work = work;
  }

  /**
   * Creates the namespaces, applies the chart's RBAC and registers the test's nodes (label {@value
   * #NODE_LABEL}).
   */
  static E2eServices prepare(
      ControlPlane controlPlane,
      ApiClient admin,
      SimulatedNodes nodes,
      String test,
      String jobsNamespace,
      int nodeCount)
      throws Exception {
    String systemNamespace = test + "-system";
    CoreV1Api core = new CoreV1Api(admin);
    for (String namespace : List.of(systemNamespace, jobsNamespace)) {
      core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
          .execute();
    }
    E2eServices services =
        new E2eServices(
            controlPlane,
            admin,
            systemNamespace,
            Files.createTempDirectory("arranger-" + test + "-"));
    ChartRbac.apply(
        admin,
        services.root,
        systemNamespace,
        Map.of("scheduler", "arranger-scheduler", "controller", "arranger-controller"));
    for (int i = 0; i < nodeCount; i++) {
      nodes.register(
          NodeSpec.named(test + "-node-" + i)
              .cpu("8")
              .memory("32Gi")
              .pods(110)
              .label(SimulatedNodeAgent.SIMULATED_LABEL, "true")
              .label(NODE_LABEL, test)
              .build());
    }
    return services;
  }

  Path work() {
    return work;
  }

  /** Where the services' Leases are, and their pods would be. */
  String systemNamespace() {
    return systemNamespace;
  }

  /**
   * A simulated kubelet for every simulated node: pods start after 300 ms, leaders finish after the
   * run time.
   */
  SimulatedNodeAgent kubelet(Duration leaderRunTime) {
    ApiClient watchClient = controlPlane.adminClient();
    watchClient.setReadTimeout(0);
    return new SimulatedNodeAgent(
            watchClient,
            admin,
            new SimulatedNodeAgent.Timing(Duration.ofMillis(300), leaderRunTime))
        .start();
  }

  /** A simulated kubelet and one ready replica of each service; closed in the reverse order. */
  record Running(SimulatedNodeAgent kubelet, ReplicaSet scheduler, ReplicaSet controller)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        controller.close();
      } finally {
        try {
          scheduler.close();
        } finally {
          kubelet.close();
        }
      }
    }
  }

  /**
   * The kubelet (leaders run {@code leaderRunTime}), then {@code schedulers} replicas of the
   * scheduler with preempt and reclaim on and one of the controller, awaited until ready.
   */
  Running startWithPreemption(
      int schedulers, Duration leaderRunTime, Duration leaseDuration, Duration retryPeriod) {
    SimulatedNodeAgent kubelet = kubelet(leaderRunTime);
    ReplicaSet scheduler = null;
    ReplicaSet controller = null;
    try {
      scheduler =
          replicas("scheduler", leaseDuration, retryPeriod, null, PREEMPT_RECLAIM)
              .start(schedulers);
      controller = replicas("controller", leaseDuration, retryPeriod, null).start(1);
      scheduler.awaitAllReady(Duration.ofMinutes(3));
      controller.awaitAllReady(Duration.ofMinutes(3));
      return new Running(kubelet, scheduler, controller);
    } catch (RuntimeException | Error e) {
      if (controller != null) {
        controller.close();
      }
      if (scheduler != null) {
        scheduler.close();
      }
      kubelet.close();
      throw e;
    }
  }

  /**
   * @param service "scheduler" or "controller"
   * @param leaseDuration the lease's duration; the renew deadline is two retry periods shorter
   * @param requestTimeout the services' request timeout, or null for their default. A leader writes
   *     only within lease duration minus the request timeout of its last renewal and refuses to
   *     start when that window is not longer than the retry period, so short leases need short
   *     requests.
   */
  ReplicaSet replicas(
      String service, Duration leaseDuration, Duration retryPeriod, Duration requestTimeout) {
    return replicas(service, leaseDuration, retryPeriod, requestTimeout, Map.of());
  }

  /**
   * @param extra further Spring properties of the service, e.g. the scheduler's configuration
   */
  ReplicaSet replicas(
      String service,
      Duration leaseDuration,
      Duration retryPeriod,
      Duration requestTimeout,
      Map<String, String> extra) {
    String user = "arranger-" + service;
    Path kubeconfig = controlPlane.writeKubeconfig(work.resolve(service + ".kubeconfig"), user);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("arranger.kubernetes.kubeconfig", kubeconfig.toString());
    properties.put("arranger.kubernetes.readiness-period", "1s");
    properties.put("arranger.leader-election.lease-namespace", systemNamespace);
    properties.put("arranger.leader-election.lease-duration", leaseDuration.toMillis() + "ms");
    properties.put(
        "arranger.leader-election.renew-deadline",
        leaseDuration.minus(retryPeriod.multipliedBy(2)).toMillis() + "ms");
    properties.put("arranger.leader-election.retry-period", retryPeriod.toMillis() + "ms");
    if (requestTimeout != null) {
      properties.put("arranger.kubernetes.request-timeout", requestTimeout.toMillis() + "ms");
    }
    properties.put("arranger.scheduler.config-map.namespace", systemNamespace);
    properties.put("arranger.scheduler.period", "500ms");
    properties.putAll(extra);
    return new ReplicaSet(
        service,
        Path.of(System.getProperty("arranger." + service + "Jar")),
        work,
        properties,
        JVM_OPTIONS,
        admin,
        systemNamespace,
        "arranger-" + service);
  }

  /**
   * A client for lists during faults: a short read timeout, so that a frozen API server costs one
   * read.
   */
  ApiClient shortTimeoutClient() {
    ApiClient client = controlPlane.adminClient();
    client.setReadTimeout(5_000);
    return client;
  }

  ApiClient watchClient() {
    ApiClient client = controlPlane.adminClient();
    client.setReadTimeout(0);
    return client;
  }
}
