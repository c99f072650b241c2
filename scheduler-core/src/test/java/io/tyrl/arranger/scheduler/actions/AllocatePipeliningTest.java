package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Allocate pipelines onto room being released, as preempt does. One node of 8 cpu, half of it held
 * by a pod being deleted: {@code high} (6 cpu) fits only once that pod is gone, {@code low} (4 cpu)
 * fits the idle half now.
 */
class AllocatePipeliningTest {

  private static NodeInfo halfReleasing() {
    return node("n").cpu("8").memory("64Gi").releasing("cpu", "4").build();
  }

  private static NodeInfo released() {
    return node("n").cpu("8").memory("64Gi").build();
  }

  private static final JobInfo HIGH =
      job("high").priority(8).minWorkers(0).leader("cpu", "6").build();
  private static final JobInfo LOW =
      job("low").priority(1).created(T0.plusSeconds(1)).minWorkers(0).leader("cpu", "4").build();

  @Test
  void aPodThatFitsOnlyInReleasingRoomIsPipelinedAndThatRoomIsNotGivenToALaterJob() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                List.of(halfReleasing()),
                List.of(HIGH, LOW),
                List.of())
            .followingControllerStages();

    CycleResult first = simulator.cycle(T0.plusSeconds(10));

    JobDecision high = first.decision("default/high");
    assertThat(high.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(high.reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
    assertThat(high.allocations()).isEmpty();
    assertThat(high.message())
        .isEqualTo(
            "leader+0/0 workers pipelined onto resources being released; waiting for pods already"
                + " being released on n");
    assertThat(first.decision("default/low").allocations()).isEmpty();

    simulator.replaceNodes(List.of(released()));
    CycleResult second = simulator.cycle(T0.plusSeconds(11));

    assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), second)).isEmpty();
    assertThat(second.decision("default/high").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(second.decision("default/high").allocations()).containsEntry("high-learner", "n");
    assertThat(second.decision("default/low").allocations()).isEmpty();
  }

  /**
   * A minimum met partly on idle room and partly on releasing room: the job waits for the release,
   * nothing is lost.
   */
  @Test
  void aMinimumThatNeedsReleasingRoomWaitsForItAndIsPlacedOnceItIsFree() {
    JobInfo gang = job("gang").minWorkers(1).leader("cpu", "4").workers("w", 1, "cpu", "4").build();
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                List.of(halfReleasing()),
                List.of(gang),
                List.of())
            .followingControllerStages();

    JobDecision waiting = simulator.cycle(T0.plusSeconds(10)).decision("default/gang");
    simulator.replaceNodes(List.of(released()));
    JobDecision placed = simulator.cycle(T0.plusSeconds(11)).decision("default/gang");

    assertThat(waiting.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(waiting.reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
    assertThat(placed.state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(placed.allocations()).hasSize(2);
  }
}
