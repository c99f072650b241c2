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
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** backfill alone, on pods that request nothing: two nodes, one labelled zone=a. */
class BackfillTest {

  private static final SchedulerConfiguration BACKFILL_ONLY =
      Fixtures.configuration(
          """
      actions: backfill
      tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
      """);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "every pod fits: placed whole",
            job("j").minWorkers(1).leader().workers("w", 2).build(),
            ScheduleState.SCHEDULED_SUCCEED,
            null,
            3),
        // No node admits it today, but one may be labelled tomorrow: it waits, it does not fail.
        Arguments.of(
            "no node admits the leader: the job waits, told why",
            job("j").minWorkers(0).nodeSelector("zone", "nowhere").leader().workers("w", 2).build(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.UNSCHEDULABLE,
            0),
        Arguments.of(
            "pods that fit only on zone=a all go there",
            job("j").minWorkers(2).nodeSelector("zone", "a").leader().workers("w", 2).build(),
            ScheduleState.SCHEDULED_SUCCEED,
            null,
            3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void bestEffortPodsArePlacedOrTheJobIsToldWhyNot(
      String name, JobInfo job, ScheduleState state, ReasonCode reason, int placed) {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("1").memory("1Gi").label("zone", "a").build(),
                node("n2").cpu("1").memory("1Gi").build()),
            List.of(job),
            List.of());

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, BACKFILL_ONLY, T0);

    JobDecision decision = result.decision("default/j");
    assertThat(decision.state()).as(decision.toString()).isEqualTo(state);
    assertThat(decision.reason()).isEqualTo(reason);
    assertThat(decision.allocations()).hasSize(placed);
    if (job.tasks().get(0).constraints().nodeSelector().equals(Map.of("zone", "a"))) {
      assertThat(decision.allocations().values()).containsOnly("n1");
    }
    if (reason == ReasonCode.UNSCHEDULABLE) {
      assertThat(decision.message())
          .contains("0/2 nodes fit learner: 2 node(s) didn't match node selector");
    }
  }
}
