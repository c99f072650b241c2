package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** enqueue alone decides each job's admission: one node of 8 cpu, no GPU. */
class EnqueueTest {

  private static final SchedulerConfiguration ENQUEUE_ONLY =
      Fixtures.configuration(
          """
      actions: enqueue
      tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: overcommit}, {name: nodeorder}]
      """);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "a minimum no node can ever hold fails at once",
            job("j")
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("w", 1, "nvidia.com/gpu", "1")
                .build(),
            ScheduleState.SCHEDULED_FAILED,
            ReasonCode.NEVER_FITS,
            "requests nvidia.com/gpu 1, and no node has nvidia.com/gpu"),
        Arguments.of(
            "a minimum larger than the room left waits, not enqueued",
            job("j").minWorkers(2).leader("cpu", "4").workers("w", 2, "cpu", "4").build(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.NOT_ENQUEUED,
            ""),
        Arguments.of(
            "a minimum that fits is enqueued and waits for allocate",
            job("j").minWorkers(1).leader("cpu", "4").workers("w", 1, "cpu", "4").build(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.UNSCHEDULABLE,
            "not considered in this cycle"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachJobIsAdmittedRefusedOrFailed(
      String name, JobInfo job, ScheduleState state, ReasonCode reason, String message) {
    Snapshot snapshot =
        new Snapshot(List.of(node("n1").cpu("8").memory("16Gi").build()), List.of(job), List.of());

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, ENQUEUE_ONLY, T0);

    JobDecision decision = result.decision("default/j");
    assertThat(decision.state()).as(decision.toString()).isEqualTo(state);
    assertThat(decision.reason()).isEqualTo(reason);
    assertThat(decision.message()).contains(message);
    assertThat(decision.allocations()).isEmpty();
  }
}
