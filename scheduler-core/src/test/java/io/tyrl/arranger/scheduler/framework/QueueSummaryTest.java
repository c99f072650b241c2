package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a Queue's status reports, as the pure core computes it at the end of a cycle. */
class QueueSummaryTest {

  /**
   * Two 4-cpu nodes; queue {@code q} capped at 8 cpu. Each job of the queue is in exactly one
   * state:
   *
   * <ul>
   *   <li>{@code run} held its minimum before the cycle, {@code fresh} is placed by it: running;
   *   <li>{@code wait} is admitted (the queue can hold its minimum) but no node matches its
   *       selector: inqueue;
   *   <li>{@code late} is refused by enqueue, the queue's capability being taken by the others:
   *       pending;
   *   <li>{@code huge} can never fit and fails: in no count.
   * </ul>
   */
  @Test
  void jobsAreCountedByWhereTheyStandWithAllocatedAndDeservedResources() {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("4").memory("16Gi").build(),
                node("n2").cpu("4").memory("16Gi").build()),
            List.of(
                job("run")
                    .queue("q")
                    .leader("cpu", "1")
                    .workers("actor", 1, "cpu", "1")
                    .running("n1", 1)
                    .build(),
                job("fresh")
                    .queue("q")
                    .priority(10)
                    .leader("cpu", "1")
                    .workers("actor", 1, "cpu", "1")
                    .build(),
                job("wait")
                    .queue("q")
                    .priority(9)
                    .leader("cpu", "2")
                    .workers("actor", 1, "cpu", "2")
                    .nodeSelector("pool", "none")
                    .build(),
                job("late")
                    .queue("q")
                    .priority(1)
                    .leader("cpu", "1")
                    .workers("actor", 1, "cpu", "1")
                    .build(),
                job("huge").queue("q").priority(10).minWorkers(0).leader("cpu", "64").build(),
                job("lost").queue("missing").minWorkers(0).leader("cpu", "1").build()),
            List.of(queue("q").capability("cpu", "8").build(), queue("idle").weight(3).build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/late").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/wait").reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(result.decision("default/huge").reason()).isEqualTo(ReasonCode.NEVER_FITS);
    QueueSummary q = result.queues().get("q");
    assertThat(q.pendingJobs()).as("pending").isEqualTo(1);
    assertThat(q.inqueueJobs()).as("inqueue").isEqualTo(1);
    assertThat(q.runningJobs()).as("running").isEqualTo(2);
    assertThat(q.unplacedJobs()).as("not fully placed: wait, late").isEqualTo(2);
    assertThat(q.allocated()).isEqualTo(Resource.of("cpu", "4"));
    // It requests far more than the cluster's 8 cpu; its capability caps what it deserves.
    assertThat(q.deserved()).isEqualTo(Resource.of("cpu", "8"));
    assertThat(q.overused()).isFalse();

    QueueSummary idle = result.queues().get("idle");
    assertThat(idle)
        .isEqualTo(new QueueSummary("idle", Resource.EMPTY, Resource.EMPTY, 0, 0, 0, false, 0));
    assertThat(result.queues())
        .as("a job's missing queue gets no summary")
        .doesNotContainKey("missing");
  }

  /**
   * Two queues of equal weight share 8 cpu: the one holding its 4 is overused, the one holding
   * nothing is not.
   */
  @Test
  void aQueueHoldingItsDeservedShareIsOverusedAndOneHoldingNothingIsNot() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("4").build(), node("n2").cpu("4").build()),
            List.of(
                job("a-running")
                    .queue("a")
                    .minWorkers(0)
                    .leader("cpu", "4")
                    .running("n1", 0)
                    .build(),
                job("a-more")
                    .queue("a")
                    .minWorkers(0)
                    .leader("cpu", "4")
                    .created(T0.plusSeconds(1))
                    .build(),
                job("b-waiting")
                    .queue("b")
                    .minWorkers(0)
                    .leader("cpu", "4")
                    .nodeSelector("pool", "none")
                    .build()),
            List.of(queue("a").build(), queue("b").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    QueueSummary a = result.queues().get("a");
    assertThat(a.deserved()).isEqualTo(Resource.of("cpu", "4"));
    assertThat(a.allocated()).isEqualTo(Resource.of("cpu", "4"));
    assertThat(a.overused()).isTrue();
    assertThat(a.runningJobs()).isEqualTo(1);
    assertThat(a.pendingJobs() + a.inqueueJobs()).as("a-more waits").isEqualTo(1);
    QueueSummary b = result.queues().get("b");
    assertThat(b.deserved()).isEqualTo(Resource.of("cpu", "4"));
    assertThat(b.allocated()).isEqualTo(Resource.EMPTY);
    assertThat(b.overused()).isFalse();
    assertThat(b.inqueueJobs()).isEqualTo(1);
  }

  /**
   * Equal cycles give equal summaries, so the adapter writes a queue only when something changed.
   */
  @Test
  void anUnchangedClusterGivesAnEqualSummary() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("4").build()),
            List.of(
                job("run").queue("q").minWorkers(0).leader("cpu", "2").running("n1", 0).build(),
                job("wait")
                    .queue("q")
                    .minWorkers(0)
                    .leader("cpu", "2")
                    .nodeSelector("pool", "none")
                    .build()),
            List.of(queue("q").build()));

    QueueSummary first =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0)
            .queues()
            .get("q");
    QueueSummary second =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(1))
            .queues()
            .get("q");

    assertThat(second).isEqualTo(first);
    assertThat(first.forStatus().unplacedJobs()).isZero();
  }
}
