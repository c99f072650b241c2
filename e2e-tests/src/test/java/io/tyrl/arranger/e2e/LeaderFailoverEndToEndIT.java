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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leaders that die without giving their lease up — SIGKILLed, or frozen (SIGSTOP) and resumed after
 * the standby took over — under a stream of jobs, with two replicas of each service from their
 * jars: the standby takes over once the lease has expired (not before: that would be two leaders),
 * and over the whole run no pod is allocated twice, no node is over-committed, no pod is created
 * twice, and every job finishes.
 */
@ExtendWith(KubeApiServerExtension.class)
class LeaderFailoverEndToEndIT {

  private static final String JOBS_NAMESPACE = "failover-jobs";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(6);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

  /**
   * Short enough for the leader's write window (lease duration minus request timeout) to exceed the
   * retry period.
   */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

  /**
   * A standby acquires an expired lease at its next retry; the rest is scheduling noise on a busy
   * machine.
   */
  private static final Duration TAKEOVER_BOUND = LEASE_DURATION.plus(RETRY_PERIOD).plusSeconds(4);

  /**
   * The standby last saw the dead leader's renewal at most about a retry period before the kill.
   */
  private static final Duration EARLIEST_TAKEOVER =
      LEASE_DURATION.minus(RETRY_PERIOD.multipliedBy(2));

  private static final Pattern LEADER_GAUGE =
      Pattern.compile("(?m)^arranger_leader\\{[^}]*} ([0-9.]+)");

  @Test
  void killedAndFrozenLeadersAreReplacedAfterTheirLeaseExpiresWithoutAnyPodPlacedTwice(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    E2eServices cluster =
        E2eServices.prepare(controlPlane, admin, nodes, "failover", JOBS_NAMESPACE, 6);
    ClusterInvariants invariants = new ClusterInvariants(Duration.ofSeconds(120));
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(4));
        ReplicaSet schedulers =
            cluster.replicas("scheduler", LEASE_DURATION, RETRY_PERIOD, REQUEST_TIMEOUT).start(2);
        ReplicaSet controllers =
            cluster
                .replicas("controller", LEASE_DURATION, RETRY_PERIOD, REQUEST_TIMEOUT)
                .start(2)) {
      schedulers.awaitAllReady(Duration.ofMinutes(3));
      controllers.awaitAllReady(Duration.ofMinutes(3));
      try (ClusterSampler sampler =
              new ClusterSampler(
                      cluster.shortTimeoutClient(),
                      cluster.watchClient(),
                      invariants,
                      Duration.ofMillis(300))
                  .start();
          JobStream stream =
              new JobStream(
                      admin, JOBS_NAMESPACE, "stream", Duration.ofMillis(1500), invariants, 12)
                  .nodeSelector(E2eServices.NODE_LABEL, "failover")
                  .start()) {
        await().atMost(Duration.ofMinutes(2)).until(() -> invariants.jobs().succeededJobs() >= 3);

        for (ReplicaSet service : new ReplicaSet[] {schedulers, controllers}) {
          await().atMost(Duration.ofSeconds(30)).until(() -> service.leader().isPresent());
          ReplicaSet.Kill kill = service.killLeader();
          Optional<Duration> takeover = service.awaitTakeover(kill, Duration.ofSeconds(60));
          assertThat(takeover)
              .as("%s: a standby took over from the killed %s", service.service(), kill.identity())
              .isPresent();
          System.out.printf(
              "[failover-it] %s leader %s SIGKILLed; %s took over after %d ms%n",
              service.service(),
              kill.identity(),
              service.holder().orElse("?"),
              takeover.get().toMillis());
          assertThat(takeover.get())
              .as("%s takeover after SIGKILL of %s", service.service(), kill.identity())
              .isBetween(EARLIEST_TAKEOVER, TAKEOVER_BOUND);
          service.replace(kill.identity()).awaitReady(Duration.ofMinutes(3));
          int succeeded = invariants.jobs().succeededJobs();
          await()
              .atMost(Duration.ofMinutes(1))
              .until(() -> invariants.jobs().succeededJobs() >= succeeded + 2);
        }

        // A frozen leader is not dead: once resumed it must find it has lost the lease and stop
        // leading.
        await().atMost(Duration.ofSeconds(30)).until(() -> schedulers.leader().isPresent());
        ServiceProcess frozen = schedulers.leader().orElseThrow();
        Instant frozenAt = Instant.now();
        frozen.freeze();
        ReplicaSet.Kill asIfKilled = new ReplicaSet.Kill("scheduler", frozen.name(), frozenAt);
        Optional<Duration> takeover = schedulers.awaitTakeover(asIfKilled, Duration.ofSeconds(60));
        assertThat(takeover)
            .as("a standby took over from the frozen %s", frozen.name())
            .isPresent();
        System.out.printf(
            "[failover-it] scheduler leader %s frozen; %s took over after %d ms%n",
            frozen.name(), schedulers.holder().orElse("?"), takeover.get().toMillis());
        assertThat(takeover.get())
            .as("takeover after SIGSTOP of %s", frozen.name())
            .isBetween(EARLIEST_TAKEOVER, TAKEOVER_BOUND);
        frozen.thaw();
        await().atMost(LEASE_DURATION.plusSeconds(5)).until(() -> leaderGauge(frozen) == 0.0);
        int succeeded = invariants.jobs().succeededJobs();
        await()
            .atMost(Duration.ofMinutes(1))
            .until(() -> invariants.jobs().succeededJobs() >= succeeded + 2);

        stream.close();
        await()
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> invariants.jobs().allAccountedFor());
        invariants.closeBooks();
        System.out.printf(
            "[failover-it] %d samples, %d jobs submitted, %d succeeded; violations: %s%n",
            invariants.samples(),
            invariants.jobs().submittedJobs(),
            invariants.jobs().succeededJobs(),
            invariants.violations());
        assertThat(invariants.samples()).isGreaterThan(50);
        assertThat(invariants.jobs().submittedJobs()).isGreaterThan(10);
        assertThat(invariants.violations()).isEmpty();
        assertThat(invariants.doubleAllocations()).isZero();
        assertThat(invariants.overcommittedNodes()).isZero();
        assertThat(invariants.duplicatePods()).isZero();
        assertThat(invariants.lostJobs()).isZero();
        assertThat(invariants.stuckJobs()).isZero();
      }
      assertThat(schedulers.replicas())
          .allSatisfy(r -> assertThat(r.logTail()).doesNotContain("is forbidden"));
      assertThat(controllers.replicas())
          .allSatisfy(r -> assertThat(r.logTail()).doesNotContain("is forbidden"));
    }
  }

  /**
   * The replica's own {@code arranger_leader} gauge: 1 while it believes it leads; -1 when it does
   * not answer.
   */
  private static double leaderGauge(ServiceProcess replica) {
    HttpResponse<String> response = replica.get("/actuator/prometheus");
    if (response == null || response.statusCode() != 200) {
      return -1;
    }
    Matcher matcher = LEADER_GAUGE.matcher(response.body());
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : -1;
  }
}
