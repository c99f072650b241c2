package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.UsageLedger;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fair shares adjusted for past usage: what is above the guarantees is split by weight adjusted
 * with strength k; k = 0 is the split by weight alone, exactly; guarantees never move.
 */
class UsageFairSharesTest {

  private static final SchedulerConfiguration K0 =
      Fixtures.defaultConfiguration().withFairness(FairnessConfiguration.OFF);
  private static final SchedulerConfiguration STRONGEST =
      Fixtures.defaultConfiguration()
          .withFairness(
              new FairnessConfiguration(
                  Duration.ofDays(1), null, FairnessConfiguration.MAX_STRENGTH, false));

  static Stream<QueueTreeSharesTest.Row> treeCases() {
    return QueueTreeSharesTest.shares();
  }

  /**
   * A history in which the queues used very unequal amounts: the n-th queue (by name) held n × 3
   * GPUs for a day, so every level has a heavy and a light user.
   */
  private static Map<String, QueueUsage> skewedHistory(List<QueueInfo> queues) {
    List<String> names = queues.stream().map(QueueInfo::name).sorted().toList();
    Map<String, QueueUsage> usage = new HashMap<>();
    for (int n = 0; n < names.size(); n++) {
      usage.put(names.get(n), gpuSeconds(n * 3 * 86_400.0));
    }
    return usage;
  }

  static QueueUsage gpuSeconds(double amount) {
    return new QueueUsage(
        new DecayedUsage(
            T0,
            List.of(
                new DecayedUsage.Slot(
                    T0.minus(Duration.ofDays(1)), new TreeMap<>(Map.of(Resource.GPU, amount))))),
        Map.of());
  }

  private static Map<String, Long> deservedGpus(
      QueueTreeSharesTest.Row row, Map<String, QueueUsage> usage, SchedulerConfiguration config) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(4).build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    row.demand()
        .forEach(
            (queue, gpus) ->
                jobs.add(
                    job(queue + "-job")
                        .queue(queue)
                        .minWorkers(gpus - 1)
                        .leader("cpu", "1", Resource.GPU, "1")
                        .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1")
                        .build()));
    CycleResult result =
        Fixtures.scheduler().runCycle(new Snapshot(nodes, jobs, row.queues(), usage), config, T0);
    Map<String, Long> deserved = new TreeMap<>();
    for (QueueSummary summary : result.queues().values()) {
      deserved.put(summary.name(), wholeGpus(summary.deserved().get(Resource.GPU)));
    }
    return deserved;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("treeCases")
  void withStrengthZeroAnyHistoryGivesTheSharesByWeightAloneExactly(QueueTreeSharesTest.Row row) {
    Map<String, Long> withHistory = deservedGpus(row, skewedHistory(row.queues()), K0);

    assertThat(withHistory).containsAllEntriesOf(row.deserved());
    assertThat(withHistory).isEqualTo(deservedGpus(row, Map.of(), K0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("treeCases")
  void withoutHistoryTheDefaultStrengthGivesTheSharesByWeightAlone(QueueTreeSharesTest.Row row) {
    assertThat(deservedGpus(row, Map.of(), Fixtures.defaultConfiguration()))
        .containsAllEntriesOf(row.deserved());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("treeCases")
  void theStrongestStrengthNeverTakesFromAGuarantee(QueueTreeSharesTest.Row row) {
    Map<String, QueueUsage> history = skewedHistory(row.queues());
    Map<String, Long> byWeight = deservedGpus(row, history, K0);
    Map<String, Long> byUsage = deservedGpus(row, history, STRONGEST);

    for (QueueInfo queue : row.queues()) {
      long guaranteed =
          Math.min(wholeGpus(queue.guarantee().get(Resource.GPU)), byWeight.get(queue.name()));
      assertThat(byUsage.get(queue.name()))
          .as("queue %s, guaranteed %d of what it deserves by weight", queue.name(), guaranteed)
          .isGreaterThanOrEqualTo(guaranteed);
    }
    // And the total handed out is what it was: usage moves shares, it neither makes nor loses room.
    assertThat(sumOfTopLevel(row, byUsage)).isEqualTo(sumOfTopLevel(row, byWeight));
  }

  private static long sumOfTopLevel(QueueTreeSharesTest.Row row, Map<String, Long> deserved) {
    return row.queues().stream()
        .filter(queue -> queue.parent() == null)
        .mapToLong(queue -> deserved.get(queue.name()))
        .sum();
  }

  @Test
  void theQueueThatUsedMoreGetsLessOfWhatIsAboveTheGuaranteesAndMoreStrengthMovesMore() {
    QueueTreeSharesTest.Row row =
        new QueueTreeSharesTest.Row(
            "two equal queues, both wanting everything",
            List.of(queue("a").build(), queue("b").build()),
            Map.of("a", 16, "b", 16),
            Map.of());
    // a held half the cluster (8 GPUs) for half a day; b nothing.
    Map<String, QueueUsage> history = Map.of("a", gpuSeconds(8 * 43_200.0));

    long weak = deservedGpus(row, history, withStrength(1)).get("a");
    long byDefault = deservedGpus(row, history, Fixtures.defaultConfiguration()).get("a");
    long strong = deservedGpus(row, history, withStrength(30)).get("a");

    assertThat(deservedGpus(row, history, K0).get("a")).isEqualTo(8);
    assertThat(weak).isLessThanOrEqualTo(8);
    assertThat(byDefault).isLessThan(weak).isLessThan(8);
    assertThat(strong).isLessThan(byDefault).isGreaterThanOrEqualTo(0);
  }

  /** The worked example of docs/policies.md, "Fairness over time". */
  @Test
  void theWorkedExampleOfThePoliciesPage() {
    QueueTreeSharesTest.Row row =
        new QueueTreeSharesTest.Row(
            "two equal queues, both wanting everything",
            List.of(queue("a").build(), queue("b").build()),
            Map.of("a", 16, "b", 16),
            Map.of());
    // a held 8 GPUs for the last 12 hours, each second decayed with a 24 h half-life since.
    double usage = 8 * 86_400 / Math.log(2) * (1 - Math.pow(2, -0.5));
    Map<String, QueueUsage> history = Map.of("a", gpuSeconds(usage));

    assertThat(deservedGpus(row, history, withStrength(10)))
        .containsEntry("a", 4L)
        .containsEntry("b", 12L);
    assertThat(deservedGpus(row, history, K0)).containsEntry("a", 8L).containsEntry("b", 8L);
  }

  private static SchedulerConfiguration withStrength(double k) {
    return Fixtures.defaultConfiguration()
        .withFairness(new FairnessConfiguration(Duration.ofDays(1), null, k, false));
  }

  /**
   * Team a held the whole cluster for 12 hours while b was idle; then both want everything. Hour by
   * hour, each holds the share it was given: a's share starts below half and climbs back to half as
   * its lead decays and b's usage grows — never down again, never above half.
   */
  @Test
  void overManyCyclesTheShareMovesSmoothlyBackToTheWeightsWithoutOscillating() {
    SchedulerConfiguration config = Fixtures.defaultConfiguration();
    FairnessConfiguration fairness = config.fairness();
    UsageLedger ledger = new UsageLedger();
    Instant start = T0;
    long heldByA = 16;
    long heldByB = 0;
    for (int hour = 0; hour <= 12; hour++) {
      ledger.advance(holding(heldByA, heldByB), start.plus(Duration.ofHours(hour)), fairness);
    }
    List<Long> sharesOfA = new ArrayList<>();
    for (int hour = 13; hour <= 13 + 72; hour++) {
      Instant now = start.plus(Duration.ofHours(hour));
      Snapshot snapshot = holding(heldByA, heldByB);
      Map<String, QueueUsage> usage = ledger.advance(snapshot, now, fairness);
      CycleResult result = Fixtures.scheduler().runCycle(snapshot.withUsage(usage), config, now);
      heldByA = wholeGpus(result.queues().get("a").deserved().get(Resource.GPU));
      heldByB = wholeGpus(result.queues().get("b").deserved().get(Resource.GPU));
      assertThat(heldByA + heldByB).isEqualTo(16);
      sharesOfA.add(heldByA);
    }

    assertThat(sharesOfA.get(0)).as("a's share right after its sweep").isLessThan(8);
    assertThat(sharesOfA.get(sharesOfA.size() - 1)).as("a's share three days on").isEqualTo(8);
    for (int i = 1; i < sharesOfA.size(); i++) {
      assertThat(sharesOfA.get(i))
          .as("a's share in hour %d after the sweep: %s", i, sharesOfA)
          .isGreaterThanOrEqualTo(sharesOfA.get(i - 1))
          .isLessThanOrEqualTo(8);
    }
  }

  /**
   * A cluster of one 16-GPU node on which a and b hold what they were given, each with a pending
   * job that wants the whole cluster too.
   */
  private static Snapshot holding(long gpusOfA, long gpusOfB) {
    List<JobInfo> jobs = new ArrayList<>();
    for (Map.Entry<String, Long> held : Map.of("a", gpusOfA, "b", gpusOfB).entrySet()) {
      String queue = held.getKey();
      int gpus = held.getValue().intValue();
      if (gpus > 0) {
        jobs.add(
            job(queue + "-running")
                .queue(queue)
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "1")
                .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1")
                .running("n0", gpus - 1)
                .build());
      }
      jobs.add(
          job(queue + "-waiting")
              .queue(queue)
              .minWorkers(15)
              .leader("cpu", "1", Resource.GPU, "1")
              .workers("actor", 15, "cpu", "1", Resource.GPU, "1")
              .build());
    }
    return new Snapshot(
        List.of(node("n0").cpu("64").memory("256Gi").gpu(16).build()),
        jobs,
        List.of(queue("a").build(), queue("b").build()));
  }

  @Test
  void withNamespaceOrderTheJobOfTheNamespaceThatUsedLeastInTheQueueGoesFirst() {
    // Room for one of the two 4-GPU jobs; by key alone "heavy-job" would go first.
    List<JobInfo> jobs =
        List.of(
            job("heavy-job")
                .namespace("alice")
                .queue("team")
                .minWorkers(3)
                .leader("cpu", "1", Resource.GPU, "1")
                .workers("actor", 3, "cpu", "1", Resource.GPU, "1")
                .build(),
            job("light-job")
                .namespace("bob")
                .queue("team")
                .minWorkers(3)
                .leader("cpu", "1", Resource.GPU, "1")
                .workers("actor", 3, "cpu", "1", Resource.GPU, "1")
                .build());
    Map<String, QueueUsage> usage =
        Map.of(
            "team",
            new QueueUsage(
                DecayedUsage.NONE,
                Map.of(
                    "alice", gpuSeconds(4 * 86_400.0).queue(),
                    "bob", gpuSeconds(86_400.0).queue())));
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n0").cpu("64").memory("256Gi").gpu(4).build()),
            jobs,
            List.of(queue("team").build()),
            usage);
    SchedulerConfiguration byNamespace =
        Fixtures.defaultConfiguration()
            .withFairness(
                new FairnessConfiguration(
                    Duration.ofDays(1), null, FairnessConfiguration.DEFAULT_STRENGTH, true));

    CycleResult ordered = Fixtures.scheduler().runCycle(snapshot, byNamespace, T0);
    CycleResult unordered =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(ordered.decisions().get("bob/light-job").state())
        .isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(ordered.decisions().get("alice/heavy-job").state())
        .isNotEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(unordered.decisions().get("alice/heavy-job").state())
        .isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }
}
