package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a gang keeps when its minimum fails only after some of its pods were placed. The room check
 * does not set the leader's room aside, so a job fragmented over nodes passes it and is found short
 * while placing: two nodes of 3 cpu, a leader of 2 cpu and two workers of 2 cpu, all three needed.
 * A younger job ({@code small}, 3 cpu) waits behind it in the same queue. allocate alone, so that
 * the room the gang gives back is not held for it by enqueue.
 */
class GangSettleTest {

  private static final SchedulerConfiguration ALLOCATE_ONLY =
      Fixtures.configuration(
          """
      actions: allocate
      tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
      """);

  private static JobInfo competingShapes(GangMode mode) {
    return job("gang")
        .created(T0)
        .gang(mode)
        .minWorkers(2)
        .leader("cpu", "2")
        .workers("w", 2, "cpu", "2")
        .build();
  }

  private static JobInfo small() {
    return job("small").created(T0.plusSeconds(1)).minWorkers(0).leader("cpu", "3").build();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // Strict: everything it placed is given back, so the room goes to the next job.
        Arguments.of(
            GangMode.STRICT,
            Map.of(),
            "gang minimum leader+2 workers not met (",
            ScheduleState.SCHEDULED_SUCCEED),
        // NonStrict: it keeps what it placed as a reservation, and the next job finds no room.
        Arguments.of(
            GangMode.NON_STRICT,
            Map.of("gang-learner", "n1", "gang-w-0", "n2"),
            "NonStrict reservation, gang minimum",
            ScheduleState.UNSCHEDULED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aGangShortOfItsMinimumAfterPlacingKeepsWhatItsModeAllows(
      GangMode mode, Map<String, String> kept, String note, ScheduleState smallJob) {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("3").memory("16Gi").build(),
                node("n2").cpu("3").memory("16Gi").build()),
            List.of(competingShapes(mode), small()),
            List.of());

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, ALLOCATE_ONLY, T0);

    JobDecision gang = result.decision("default/gang");
    assertThat(gang.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(gang.allocations()).isEqualTo(kept);
    assertThat(gang.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(gang.message()).startsWith(note);
    assertThat(result.decision("default/small").state())
        .as(result.decision("default/small").toString())
        .isEqualTo(smallJob);
  }

  @ParameterizedTest(name = "{0} over 20 cycles")
  @MethodSource("cases")
  void theOutcomeHoldsCycleAfterCycle(
      GangMode mode, Map<String, String> kept, String note, ScheduleState smallJob) {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("3").memory("16Gi").build(),
                node("n2").cpu("3").memory("16Gi").build()),
            List.of(competingShapes(mode), small()),
            List.of());
    for (int cycle = 0; cycle < 20; cycle++) {
      CycleResult result =
          Fixtures.scheduler().runCycle(snapshot, ALLOCATE_ONLY, T0.plusSeconds(cycle));

      assertThat(result.decision("default/gang").allocations())
          .as("cycle %d", cycle)
          .isEqualTo(kept);
      assertThat(result.decision("default/small").state())
          .as("cycle %d", cycle)
          .isEqualTo(smallJob);
    }
  }
}
