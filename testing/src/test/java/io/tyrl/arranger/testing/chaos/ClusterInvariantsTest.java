package io.tyrl.arranger.testing.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.testing.chaos.ClusterSnapshot.JobState;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.NodeCapacity;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClusterInvariantsTest {

  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");
  private static final List<NodeCapacity> NODES = List.of(node("n1", 4), node("n2", 4));

  static Stream<Arguments> capacityCases() {
    return Stream.of(
        Arguments.of(
            "bound pods within capacity",
            List.of(pod("a", "n1", "Running", 2), pod("b", "n1", "Running", 2)),
            List.of(),
            List.of()),
        Arguments.of(
            "bound pods over capacity",
            List.of(pod("a", "n1", "Running", 3), pod("b", "n1", "Running", 2)),
            List.of(),
            List.of("n1")),
        Arguments.of(
            "a finished pod holds nothing",
            List.of(pod("a", "n1", "Succeeded", 3), pod("b", "n1", "Running", 2)),
            List.of(),
            List.of()),
        Arguments.of(
            "a terminating pod still holds its room",
            List.of(terminating(pod("a", "n1", "Running", 3)), pod("b", "n1", "Running", 2)),
            List.of(),
            List.of("n1")),
        Arguments.of(
            "an allocation without its pod counts on its node",
            List.of(pod("a", "n1", "Running", 3)),
            List.of(job("j", "Starting", Map.of("j-w-0", "n1"), 2)),
            List.of("n1")),
        Arguments.of(
            "a bound pod counts on its node, not also on its allocation",
            List.of(pod("j-w-0", "n1", "Running", 3)),
            List.of(job("j", "Running", Map.of("j-w-0", "n1"), 3)),
            List.of()),
        Arguments.of(
            "an unbound pod counts on its allocation",
            List.of(pod("j-w-0", null, "Pending", 3), pod("x", "n2", "Running", 2)),
            List.of(job("j", "Starting", Map.of("j-w-0", "n2"), 3)),
            List.of("n2")),
        Arguments.of(
            "an ended job's allocations hold nothing",
            List.of(pod("a", "n1", "Running", 3)),
            List.of(job("j", "Succeeded", Map.of("j-w-0", "n1"), 2)),
            List.of()),
        Arguments.of(
            "two jobs' allocations on more room than the node has",
            List.of(),
            List.of(
                job("j", "Starting", Map.of("j-w-0", "n2"), 3),
                job("k", "Starting", Map.of("k-w-0", "n2"), 2)),
            List.of("n2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("capacityCases")
  void findsTheOvercommittedNodes(
      String name, List<PodState> pods, List<JobState> jobs, List<String> expected) {
    assertThat(CapacityCheck.overcommitted(new ClusterSnapshot(T0, NODES, pods, jobs)))
        .extracting(CapacityCheck.Overcommit::node)
        .containsExactlyElementsOf(expected);
  }

  @Test
  void anOvercommitCountsOnceItLastsTwoSamplesAndEachNodeOnce() {
    ClusterInvariants invariants = new ClusterInvariants(Duration.ofMinutes(1));
    List<PodState> over = List.of(pod("a", "n1", "Running", 3), pod("b", "n1", "Running", 2));
    invariants.observe(new ClusterSnapshot(T0, NODES, over, List.of()));
    assertThat(invariants.overcommittedNodes()).isZero();
    invariants.observe(new ClusterSnapshot(T0.plusMillis(300), NODES, over, List.of()));
    invariants.observe(new ClusterSnapshot(T0.plusMillis(600), NODES, over, List.of()));
    assertThat(invariants.overcommittedNodes()).isEqualTo(1);
    assertThat(invariants.violations())
        .singleElement()
        .asString()
        .contains("node n1 over-committed on cpu: 5 > 4");
  }

  @Test
  void aTornReadThatHealsByTheNextSampleIsNoOvercommit() {
    ClusterInvariants invariants = new ClusterInvariants(Duration.ofMinutes(1));
    invariants.observe(
        new ClusterSnapshot(
            T0,
            NODES,
            List.of(pod("a", "n1", "Running", 3)),
            List.of(job("j", "Starting", Map.of("j-w-0", "n1"), 2))));
    invariants.observe(
        new ClusterSnapshot(
            T0.plusMillis(300),
            NODES,
            List.of(),
            List.of(job("j", "Starting", Map.of("j-w-0", "n1"), 2))));
    assertThat(invariants.overcommittedNodes()).isZero();
  }

  @Test
  void aPodAllocatedToAnotherNodeWhileItsAllocationStoodIsADoubleAllocation() {
    PlacementHistory history = new PlacementHistory();
    history.observe(snapshot(List.of(), job("j", "Starting", Map.of("j-w-0", "n1"), 1)));
    assertThat(history.observe(snapshot(List.of(), job("j", "Starting", Map.of("j-w-0", "n2"), 1))))
        .singleElement()
        .asString()
        .contains("allocated to n1 and then to n2");
    assertThat(history.doubleAllocations()).isEqualTo(1);
  }

  @Test
  void aPlacementGivenBackMayBeTakenAnewElsewhere() {
    PlacementHistory history = new PlacementHistory();
    history.observe(snapshot(List.of(), job("j", "Starting", Map.of("j-w-0", "n1"), 1)));
    history.observe(snapshot(List.of(), job("j", "Starting", Map.of(), 1)));
    history.observe(snapshot(List.of(), job("j", "Starting", Map.of("j-w-0", "n2"), 1)));
    history.observe(
        snapshot(
            List.of(pod("j-w-0", "n1", "Failed", 1)),
            job("j", "Starting", Map.of("j-w-0", "n1"), 1)));
    history.observe(
        snapshot(
            List.of(pod("j-w-0", "n1", "Failed", 1)),
            job("j", "Starting", Map.of("j-w-0", "n2"), 1)));
    assertThat(history.doubleAllocations()).isZero();
  }

  @Test
  void aPodBoundToOneNodeWhileAllocatedToAnotherIsADoubleAllocation() {
    PlacementHistory history = new PlacementHistory();
    assertThat(
            history.observe(
                snapshot(
                    List.of(pod("j-w-0", "n2", "Running", 1)),
                    job("j", "Running", Map.of("j-w-0", "n1"), 1))))
        .singleElement()
        .asString()
        .contains("runs on n2");
    assertThat(history.doubleAllocations()).isEqualTo(1);
  }

  @Test
  void aPodCreatedAgainWhileTheFirstStillRanIsADuplicate() {
    PodHistory history = new PodHistory();
    assertThat(history.seen(withUid(pod("j-w-0", "n1", "Running", 1), "u1"))).isNull();
    history.gone(withUid(terminating(pod("j-w-0", "n1", "Running", 1)), "u1"));
    assertThat(history.seen(withUid(pod("j-w-0", "n1", "Pending", 1), "u2")))
        .contains("created again");
    assertThat(history.duplicatePods()).isEqualTo(1);
  }

  @Test
  void aPodReplacedAfterItFinishedIsNoDuplicate() {
    PodHistory history = new PodHistory();
    history.seen(withUid(pod("j-w-0", "n1", "Running", 1), "u1"));
    history.seen(withUid(pod("j-w-0", "n1", "Failed", 1), "u1"));
    history.gone(withUid(pod("j-w-0", "n1", "Failed", 1), "u1"));
    assertThat(history.seen(withUid(pod("j-w-0", "n1", "Pending", 1), "u2"))).isNull();
    history.seen(withUid(pod("j-w-0", "n1", "Running", 1), "u2"));
    assertThat(history.duplicatePods()).isZero();
  }

  @Test
  void theSamePodUpdatedIsNoDuplicate() {
    PodHistory history = new PodHistory();
    history.seen(withUid(pod("j-w-0", null, "Pending", 1), "u1"));
    history.seen(withUid(pod("j-w-0", "n1", "Running", 1), "u1"));
    assertThat(history.duplicatePods()).isZero();
  }

  @Test
  void aJobThatVanishesIsLostAndOneThatWaitsWithoutProgressIsStuck() {
    JobLedger ledger = new JobLedger(Duration.ofSeconds(60));
    ledger.submitted("ns", "gone", T0);
    ledger.submitted("ns", "waits", T0);
    ledger.submitted("ns", "moves", T0);
    JobState waits = job("waits", "Pending", Map.of(), 1);
    ledger.observe(
        new ClusterSnapshot(
            T0.plusSeconds(1),
            NODES,
            List.of(),
            List.of(
                job("gone", "Pending", Map.of(), 1), waits, job("moves", "Pending", Map.of(), 1))));
    assertThat(
            ledger.observe(
                new ClusterSnapshot(
                    T0.plusSeconds(30),
                    NODES,
                    List.of(),
                    List.of(waits, job("moves", "Starting", Map.of("moves-w-0", "n1"), 1)))))
        .containsExactly("job ns/gone vanished");
    assertThat(
            ledger.observe(
                new ClusterSnapshot(
                    T0.plusSeconds(60),
                    NODES,
                    List.of(),
                    List.of(waits, job("moves", "Running", Map.of("moves-w-0", "n1"), 1)))))
        .isEmpty();
    assertThat(
            ledger.observe(
                new ClusterSnapshot(
                    T0.plusSeconds(70),
                    NODES,
                    List.of(),
                    List.of(waits, job("moves", "Succeeded", Map.of("moves-w-0", "n1"), 1)))))
        .singleElement()
        .asString()
        .startsWith("job ns/waits made no progress for 60 s");
    assertThat(ledger.lostJobs()).isEqualTo(1);
    assertThat(ledger.stuckJobs()).isEqualTo(1);
    assertThat(ledger.allAccountedFor()).isFalse();
    assertThat(ledger.closeBooks()).isEmpty();
    assertThat(ledger.succeededJobs()).isEqualTo(1);
  }

  @Test
  void aJobReplacedOrFailedIsLostAndOneNotFinishedByTheEndIsStuck() {
    JobLedger ledger = new JobLedger(Duration.ofMinutes(10));
    ledger.submitted("ns", "replaced", T0);
    ledger.submitted("ns", "failed", T0);
    ledger.submitted("ns", "slow", T0);
    ledger.observe(
        new ClusterSnapshot(
            T0.plusSeconds(1),
            NODES,
            List.of(),
            List.of(
                job("replaced", "Pending", Map.of(), 1),
                job("failed", "Running", Map.of(), 1),
                job("slow", "Pending", Map.of(), 1))));
    JobState again = new JobState("ns", "replaced", "other-uid", "Pending", Map.of(), Map.of());
    assertThat(
            ledger.observe(
                new ClusterSnapshot(
                    T0.plusSeconds(2),
                    NODES,
                    List.of(),
                    List.of(
                        again,
                        job("failed", "Failed", Map.of(), 1),
                        job("slow", "Running", Map.of(), 1)))))
        .containsExactlyInAnyOrder(
            "job ns/replaced was replaced (uid uid-replaced → other-uid)",
            "job ns/failed ended Failed");
    assertThat(ledger.closeBooks()).containsExactly("job ns/slow did not finish (stage Running)");
    assertThat(ledger.lostJobs()).isEqualTo(2);
    assertThat(ledger.stuckJobs()).isEqualTo(1);
  }

  @Test
  void aJobNotSeenYetIsLostOnlyOnceTheWatchHasHadAmpleTimeToShowIt() {
    JobLedger ledger = new JobLedger(Duration.ofMinutes(10));
    ledger.submitted("ns", "unseen", T0);
    assertThat(ledger.observe(new ClusterSnapshot(T0.plusSeconds(5), NODES, List.of(), List.of())))
        .isEmpty();
    assertThat(
            ledger.observe(
                new ClusterSnapshot(
                    T0.plus(JobLedger.NOT_SEEN_GRACE).plusSeconds(1), NODES, List.of(), List.of())))
        .containsExactly("job ns/unseen not seen 30 s after its create was accepted");
    assertThat(ledger.lostJobs()).isEqualTo(1);
  }

  @Test
  void aJobSubmittedAfterTheSnapshotWasTakenIsNotExpectedInIt() {
    JobLedger ledger = new JobLedger(Duration.ofMinutes(1));
    ledger.submitted("ns", "late", T0.plusSeconds(5));
    assertThat(ledger.observe(new ClusterSnapshot(T0, NODES, List.of(), List.of()))).isEmpty();
    assertThat(ledger.lostJobs()).isZero();
  }

  private static ClusterSnapshot snapshot(List<PodState> pods, JobState job) {
    return new ClusterSnapshot(T0, NODES, pods, List.of(job));
  }

  private static NodeCapacity node(String name, int cpus) {
    return new NodeCapacity(name, Map.of("cpu", BigDecimal.valueOf(cpus)));
  }

  private static PodState pod(String name, String node, String phase, int cpus) {
    return new PodState(
        "ns",
        name,
        "uid-" + name,
        null,
        node,
        phase,
        false,
        Map.of("cpu", BigDecimal.valueOf(cpus)));
  }

  private static PodState terminating(PodState pod) {
    return new PodState(
        pod.namespace(),
        pod.name(),
        pod.uid(),
        pod.owner(),
        pod.node(),
        pod.phase(),
        true,
        pod.requests());
  }

  private static PodState withUid(PodState pod, String uid) {
    return new PodState(
        pod.namespace(),
        pod.name(),
        uid,
        "job-uid",
        pod.node(),
        pod.phase(),
        pod.terminating(),
        pod.requests());
  }

  /** A job whose every pod asks for the given cpus. */
  private static JobState job(
      String name, String stage, Map<String, String> allocations, int cpus) {
    Map<String, Map<String, BigDecimal>> requests = new java.util.HashMap<>();
    allocations.keySet().forEach(pod -> requests.put(pod, Map.of("cpu", BigDecimal.valueOf(cpus))));
    return new JobState("ns", name, "uid-" + name, stage, allocations, requests);
  }
}
