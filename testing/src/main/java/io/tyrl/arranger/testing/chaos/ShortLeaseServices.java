package io.tyrl.arranger.testing.chaos;

import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two scheduler and two controller replicas from their jars on short leases, as the chaos and the
 * soak runs start them, so that many takeovers fit in a run: a takeover should come within the
 * lease and a retry.
 */
record ShortLeaseServices(ReplicaSet schedulers, ReplicaSet controllers) {

  static final String LEASE_NAMESPACE = "default";
  static final Duration LEASE_DURATION = Duration.ofSeconds(8);
  static final Duration RENEW_DEADLINE = Duration.ofSeconds(5);
  static final Duration RETRY_PERIOD = Duration.ofSeconds(1);
  static final Duration READY_TIMEOUT = Duration.ofMinutes(4);

  /**
   * Starts both services' replicas, each added to {@code running} as soon as it exists, and waits
   * until every replica is ready.
   *
   * @param extraProperties properties of the run's own, beside the kubeconfig and the leases
   */
  static ShortLeaseServices start(
      ApiClient admin,
      Path kubeconfig,
      Path schedulerJar,
      Path controllerJar,
      Path logs,
      Map<String, String> extraProperties,
      List<String> jvm,
      List<AutoCloseable> running) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("arranger.kubernetes.kubeconfig", kubeconfig.toString());
    properties.put("arranger.leader-election.lease-duration", LEASE_DURATION.toSeconds() + "s");
    properties.put("arranger.leader-election.renew-deadline", RENEW_DEADLINE.toSeconds() + "s");
    properties.put("arranger.leader-election.retry-period", RETRY_PERIOD.toSeconds() + "s");
    // A leader writes only within lease duration minus the request timeout of its last renewal, and
    // refuses to start when that window is not longer than the retry period: short leases need
    // short requests. (Before that fence, request-timeout was the client's read timeout, 30 s by
    // default.)
    properties.put(
        "arranger.kubernetes.request-timeout", LEASE_DURATION.dividedBy(2).toSeconds() + "s");
    properties.putAll(extraProperties);
    ReplicaSet schedulers =
        new ReplicaSet(
            "scheduler",
            schedulerJar,
            logs,
            properties,
            jvm,
            admin,
            LEASE_NAMESPACE,
            "arranger-scheduler");
    running.add(schedulers);
    ReplicaSet controllers =
        new ReplicaSet(
            "controller",
            controllerJar,
            logs,
            properties,
            jvm,
            admin,
            LEASE_NAMESPACE,
            "arranger-controller");
    running.add(controllers);
    schedulers.start(2);
    controllers.start(2);
    schedulers.awaitAllReady(READY_TIMEOUT);
    controllers.awaitAllReady(READY_TIMEOUT);
    return new ShortLeaseServices(schedulers, controllers);
  }
}
