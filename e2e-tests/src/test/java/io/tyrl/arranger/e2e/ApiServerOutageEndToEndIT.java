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
import java.util.stream.Stream;
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
    rideOut("outage-stop", controlPlane, admin, nodes, new Outage() {
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
    rideOut("outage-freeze", controlPlane, admin, nodes, new Outage() {
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

  private static void rideOut(String test, ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes,
      Outage outage) throws Exception {
    String jobsNamespace = test + "-jobs";
    E2eServices cluster = E2eServices.prepare(controlPlane, admin, nodes, test, jobsNamespace, 4);
    ClusterInvariants invariants = new ClusterInvariants(Duration.ofSeconds(150));
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(4));
        ReplicaSet schedulers = cluster.replicas("scheduler", Duration.ofSeconds(15), Duration.ofSeconds(2)).start(1);
        ReplicaSet controllers = cluster.replicas("controller", Duration.ofSeconds(15), Duration.ofSeconds(2)).start(1)) {
      schedulers.awaitAllReady(Duration.ofMinutes(3));
      controllers.awaitAllReady(Duration.ofMinutes(3));
      List<ServiceProcess> services = Stream.concat(schedulers.replicas().stream(), controllers.replicas().stream())
          .toList();
      try (ClusterSampler sampler = new ClusterSampler(cluster.shortTimeoutClient(), cluster.watchClient(), invariants,
              Duration.ofMillis(300)).start();
          JobStream stream = new JobStream(cluster.shortTimeoutClient(), jobsNamespace, "stream",
              Duration.ofSeconds(2), invariants, 21).nodeSelector(E2eServices.NODE_LABEL, test).start()) {
        await().atMost(Duration.ofMinutes(2)).until(() -> invariants.jobs().succeededJobs() >= 2);
        int submittedBefore = invariants.jobs().submittedJobs();

        Instant start = Instant.now();
        outage.begin();
        Map<String, Duration> notReadyAfter = new LinkedHashMap<>();
        Duration left = READINESS_DROP_BOUND.minus(Duration.between(start, Instant.now()));
        assertThat(left).as("time left of the readiness bound once the outage had begun").isPositive();
        await().atMost(left)
            .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
              for (ServiceProcess service : services) {
                if (!notReadyAfter.containsKey(service.name()) && !service.isReady()) {
                  notReadyAfter.put(service.name(), Duration.between(start, Instant.now()));
                }
              }
              assertThat(notReadyAfter).as("services not ready since the outage began").hasSize(services.size());
            });
        // The outage itself is a deliberate timed pause; meanwhile the services must stay alive.
        Thread.sleep(Math.max(0, OUTAGE.minus(Duration.between(start, Instant.now())).toMillis()));
        assertThat(services).allSatisfy(service -> assertThat(service.isAlive()).as(service.name()).isTrue());
        outage.end();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> services.stream().allMatch(ServiceProcess::isReady));
        await().atMost(Duration.ofSeconds(30)).until(() -> invariants.jobs().submittedJobs() >= submittedBefore + 5);
        stream.close();
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
            .until(() -> invariants.jobs().allAccountedFor());
        invariants.closeBooks();
        assertThat(invariants.violations()).isEmpty();
        assertThat(invariants.lostJobs()).isZero();
        assertThat(invariants.stuckJobs()).isZero();
        assertThat(invariants.jobs().succeededJobs()).isEqualTo(invariants.jobs().submittedJobs());
        assertThat(invariants.overcommittedNodes()).isZero();
        assertThat(invariants.doubleAllocations()).isZero();
        assertThat(invariants.duplicatePods()).isZero();
      }
    }
  }
}
