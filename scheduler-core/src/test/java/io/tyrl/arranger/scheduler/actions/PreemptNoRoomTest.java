package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job preemption cannot help: two nodes of 4 cpu, each holding 3 cpu of {@code peer} (priority 9)
 * and n1 also 1 cpu of {@code other}; {@code high} (priority 9) needs 2 cpu. Evicting {@code other}
 * would free 1 cpu on n1, not enough. {@code high} is refused at enqueue (the queue cannot hold
 * it), and preemption is tried for it all the same. Whether it is told so depends on {@code other}
 * being of lower priority: equal priority offers no victim at all, so there is nothing to say about
 * evicting.
 */
class PreemptNoRoomTest {

  private static final String NO_ROOM =
      "evicting lower-priority pods would not make room for its gang minimum";

  @ParameterizedTest(name = "other at priority {0}: told = {1}")
  @CsvSource({"1, true", "8, true", "9, false"})
  void aJobEvictionCannotHelpIsToldSoOnlyWhenLowerPriorityPodsExist(
      int otherPriority, boolean told) {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("4").memory("16Gi").build(),
                node("n2").cpu("4").memory("16Gi").build()),
            List.of(
                job("peer")
                    .priority(9)
                    .minWorkers(1)
                    .leader("cpu", "3")
                    .workers("w", 1, "cpu", "3")
                    .placed("peer-learner", "n1")
                    .placed("peer-w-0", "n2")
                    .build(),
                job("other")
                    .priority(otherPriority)
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .placed("other-learner", "n1")
                    .build(),
                job("high")
                    .priority(9)
                    .created(T0.plusSeconds(5))
                    .minWorkers(0)
                    .leader("cpu", "2")
                    .build()),
            List.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.preemptingConfiguration(), T0.plusSeconds(60));

    JobDecision high = result.decision("default/high");
    assertThat(high.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(high.reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(high.message().contains(NO_ROOM)).as(high.message()).isEqualTo(told);
    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/other").allocations()).containsEntry("other-learner", "n1");
  }
}
