package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageLedgerTest {

  private static final FairnessConfiguration FAIRNESS = FairnessConfiguration.DEFAULT;

  /** A job of {@code gpus} GPUs, all placed on node n0. */
  private static JobInfo running(String name, String namespace, String queue, int gpus) {
    return job(name)
        .namespace(namespace)
        .queue(queue)
        .minWorkers(gpus - 1)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1")
        .running("n0", gpus - 1)
        .build();
  }

  private final Snapshot snapshot =
      new Snapshot(
          List.of(node("n0").cpu("64").memory("256Gi").gpu(16).build()),
          List.of(
              running("a1", "alice", "rl-a", 4),
              running("a2", "bob", "rl-a", 2),
              running("b1", "carol", "rl-b", 8)),
          List.of(
              queue("research").build(),
              queue("rl-a").parent("research").build(),
              queue("rl-b").parent("research").build(),
              queue("idle").build()));

  @Test
  void aQueueCountsWhatItsJobsHoldItsParentItsSubtreeAndALeafEachNamespace() {
    UsageLedger ledger = new UsageLedger();
    ledger.advance(snapshot, T0, FAIRNESS);

    Map<String, QueueUsage> usage = ledger.advance(snapshot, T0.plusSeconds(100), FAIRNESS);

    assertThat(usage.get("rl-a").queue().total(Resource.GPU)).isCloseTo(600, withinPercentage(0.5));
    assertThat(usage.get("rl-b").queue().total(Resource.GPU)).isCloseTo(800, withinPercentage(0.5));
    assertThat(usage.get("research").queue().total(Resource.GPU))
        .isCloseTo(1400, withinPercentage(0.5));
    assertThat(usage.get("rl-a").namespace("alice").total(Resource.GPU))
        .isCloseTo(400, withinPercentage(0.5));
    assertThat(usage.get("rl-a").namespace("bob").total(Resource.GPU))
        .isCloseTo(200, withinPercentage(0.5));
    assertThat(usage.get("rl-a").namespaces()).doesNotContainKey("carol");
    assertThat(usage.get("idle").queue().total()).isEmpty();
  }

  @Test
  void aSeededQueueGoesOnFromItsStoredUsageAndAQueueGoneIsForgotten() {
    UsageLedger first = new UsageLedger();
    first.advance(snapshot, T0, FAIRNESS);
    Map<String, QueueUsage> stored = first.advance(snapshot, T0.plusSeconds(100), FAIRNESS);

    UsageLedger next = new UsageLedger();
    stored.forEach(next::seed);
    Map<String, QueueUsage> afterFailover = next.advance(snapshot, T0.plusSeconds(200), FAIRNESS);

    assertThat(afterFailover.get("rl-b").queue().total(Resource.GPU))
        .isCloseTo(1600, withinPercentage(0.5));

    Snapshot withoutIdle =
        new Snapshot(snapshot.nodes(), snapshot.jobs(), snapshot.queues().subList(0, 3));
    assertThat(next.advance(withoutIdle, T0.plusSeconds(300), FAIRNESS)).doesNotContainKey("idle");
  }

  @Test
  void aResetQueueStartsFromNothing() {
    UsageLedger ledger = new UsageLedger();
    ledger.advance(snapshot, T0, FAIRNESS);
    ledger.advance(snapshot, T0.plusSeconds(100), FAIRNESS);

    ledger.reset("rl-b");
    Map<String, QueueUsage> usage = ledger.advance(snapshot, T0.plusSeconds(200), FAIRNESS);

    assertThat(usage.get("rl-b").queue().total()).isEmpty();
    assertThat(usage.get("rl-a").queue().total(Resource.GPU))
        .isCloseTo(1200, withinPercentage(0.5));
  }
}
