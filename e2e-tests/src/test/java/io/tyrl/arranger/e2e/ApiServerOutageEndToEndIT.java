package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.chaos.ClusterInvariants;
import io.tyrl.arranger.testing.chaos.ClusterSampler;
import io.tyrl.arranger.testing.chaos.JobStream;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The API server out for 60 s under a stream of jobs — stopped (its port closed, etcd kept, then
 * started again on the same port), and separately frozen (SIGSTOP, its port open and silent, then
 * SIGCONT): both services report not-ready within 10 s of the outage's start, come back by
 * themselves, and every job submitted before and after finishes.
 */
@ExtendWith(KubeApiServerExtension.class)
class ApiServerOutageEndToEndIT {

  private static final Duration OUTAGE = Duration.ofSeconds(60);
  private static final Duration READINESS_DROP_BOUND = Duration.ofSeconds(10);

  private interface Outage {
    void begin();

    void end();
  }

  @Test
  void bothServicesDropReadinessWithinTenSecondsOfTheApiServerStoppingAndRecoverWithoutLosingAJob(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    rideOut(
        "outage-stop",
        controlPlane,
        admin,
        nodes,
        new Outage() {
          @Override
          public void begin() {
            controlPlane.stopApiServer();
          }

          @Override
          public void end() {
            controlPlane.restartApiServer();
          }
        });
  }

  @Test
  void bothServicesDropReadinessWithinTenSecondsOfTheApiServerFreezingAndRecoverWithoutLosingAJob(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    rideOut(
        "outage-freeze",
        controlPlane,
        admin,
        nodes,
        new Outage() {
          @Override
          public void begin() {
            controlPlane.freezeApiServer();
          }

          @Override
          public void end() {
            controlPlane.thawApiServer();
          }
        });
  }

  /** Waits for the condition; whether it held is asserted later, with every other finding. */
  private static boolean awaitQuietly(Duration timeout, Callable<Boolean> condition) {
    try {
      await().atMost(timeout).pollInterval(Duration.ofMillis(500)).until(condition);
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }

  private static void rideOut(
      String test, ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes, Outage outage)
      throws Exception {
    String jobsNamespace = test + "-jobs";
    E2eServices cluster = E2eServices.prepare(controlPlane, admin, nodes, test, jobsNamespace, 4);
    ClusterInvariants invariants = new ClusterInvariants(Duration.ofSeconds(150));
    // The services' own timeouts (no request-timeout given): readiness must follow the API server
    // with them.
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(4));
        ReplicaSet schedulers =
            cluster
                .replicas("scheduler", Duration.ofSeconds(15), Duration.ofSeconds(2), null)
                .start(1);
        ReplicaSet controllers =
            cluster
                .replicas("controller", Duration.ofSeconds(15), Duration.ofSeconds(2), null)
                .start(1)) {
      schedulers.awaitAllReady(Duration.ofMinutes(3));
      controllers.awaitAllReady(Duration.ofMinutes(3));
      List<ServiceProcess> services =
          Stream.concat(schedulers.replicas().stream(), controllers.replicas().stream()).toList();
      try (ClusterSampler sampler =
              new ClusterSampler(
                      cluster.shortTimeoutClient(),
                      cluster.watchClient(),
                      invariants,
                      Duration.ofMillis(300))
                  .start();
          JobStream stream =
              new JobStream(
                      cluster.shortTimeoutClient(),
                      jobsNamespace,
                      "stream",
                      Duration.ofSeconds(2),
                      invariants,
                      21)
                  .nodeSelector(E2eServices.NODE_LABEL, test)
                  .start()) {
        await().atMost(Duration.ofMinutes(2)).until(() -> invariants.jobs().succeededJobs() >= 2);
        int submittedBefore = invariants.jobs().submittedJobs();

        // The outage starts once the API server is stopped or frozen: stopping waits for the
        // process to
        // exit, and kube-apiserver goes on serving through its graceful termination (up to the 15 s
        // after which ControlPlane SIGKILLs it).
        Instant stopping = Instant.now();
        outage.begin();
        Instant start = Instant.now();
        System.out.printf(
            "[outage-it] %s: outage began %d ms after it was asked for%n",
            test, Duration.between(stopping, start).toMillis());
        // The outage is a deliberate timed pause; readiness is sampled through it so that a late
        // drop
        // is measured (and reported with everything else) instead of ending the test at 10 s.
        Map<String, Duration> notReadyAfter = new LinkedHashMap<>();
        try {
          while (Duration.between(start, Instant.now()).compareTo(OUTAGE) < 0) {
            for (ServiceProcess service : services) {
              if (!notReadyAfter.containsKey(service.name()) && !service.isReady()) {
                notReadyAfter.put(service.name(), Duration.between(start, Instant.now()));
              }
            }
            Thread.sleep(200);
          }
          assertThat(services)
              .allSatisfy(service -> assertThat(service.isAlive()).as(service.name()).isTrue());
        } finally {
          // Even when something failed: the control plane serves the other tests of this JVM.
          outage.end();
        }
        System.out.printf("[outage-it] %s: not ready after %s%n", test, notReadyAfter);

        boolean recovered =
            awaitQuietly(
                Duration.ofSeconds(60), () -> services.stream().allMatch(ServiceProcess::isReady));
        awaitQuietly(
            Duration.ofSeconds(30), () -> invariants.jobs().submittedJobs() >= submittedBefore + 5);
        stream.close();
        awaitQuietly(Duration.ofMinutes(3), () -> invariants.jobs().allAccountedFor());
        invariants.closeBooks();
        System.out.printf(
            "[outage-it] %s: recovered %s; %d samples, %d jobs submitted (%d creates refused),"
                + " %d succeeded; violations: %s%n",
            test,
            recovered,
            invariants.samples(),
            invariants.jobs().submittedJobs(),
            stream.refused(),
            invariants.jobs().succeededJobs(),
            invariants.violations());

        SoftAssertions softly = new SoftAssertions();
        for (ServiceProcess service : services) {
          softly
              .assertThat(notReadyAfter.get(service.name()))
              .as("%s: time from the outage's start until readiness dropped", service.name())
              .isNotNull()
              .isLessThanOrEqualTo(READINESS_DROP_BOUND);
        }
        softly
            .assertThat(recovered)
            .as("every service ready again within 60 s of the API server's return")
            .isTrue();
        softly
            .assertThat(invariants.jobs().submittedJobs())
            .as("jobs submitted after the outage")
            .isGreaterThanOrEqualTo(submittedBefore + 5);
        softly.assertThat(invariants.violations()).as("invariant violations").isEmpty();
        softly.assertThat(invariants.lostJobs()).as("lost jobs").isZero();
        softly.assertThat(invariants.stuckJobs()).as("stuck or unfinished jobs").isZero();
        softly
            .assertThat(invariants.jobs().succeededJobs())
            .as("jobs succeeded")
            .isEqualTo(invariants.jobs().submittedJobs());
        softly.assertAll();
      }
    }
  }
}
