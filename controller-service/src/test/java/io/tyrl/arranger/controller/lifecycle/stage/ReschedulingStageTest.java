package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.PlanCase.row;
import static io.tyrl.arranger.controller.lifecycle.PlanExpectation.expect;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReschedulingStageTest {

  private static JobFixture rescheduling() {
    return JobFixture.job()
        .stage(Stage.RESCHEDULING)
        .leaderRestarts(1)
        .scheduled(ScheduleState.UNSCHEDULED);
  }

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row(
            "old pods still there: deleted again (an earlier delete may have failed), no second count",
            rescheduling(),
            List.of(pod("train-learner").failed("Error").on("node-a"), serving("train-actor-0")),
            expect(Stage.RESCHEDULING).deletes("train-learner", "train-actor-0").leaderRestarts(1)),
        row(
            "old pods terminating: waits for them to go",
            rescheduling().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-b"),
            List.of(serving("train-learner").deleting()),
            expect(Stage.RESCHEDULING).leaderRestarts(1)),
        row(
            "pods gone, not placed again yet: waits",
            rescheduling(),
            List.of(),
            expect(Stage.RESCHEDULING)),
        row(
            "pods gone, scheduler state still from before but nothing allocated: waits",
            rescheduling().scheduled(ScheduleState.SCHEDULED_SUCCEED),
            List.of(),
            expect(Stage.RESCHEDULING)),
        row(
            "pods gone and leader placed again → leader recreated, Starting",
            rescheduling()
                .scheduled(ScheduleState.SCHEDULED_PARTLY)
                .allocate("train-learner", "node-b"),
            List.of(),
            expect(Stage.STARTING)
                .creates("train-learner")
                .events("LeaderRecreated")
                .leaderRestarts(1)),
        row(
            "scheduler can no longer place the job → Failed",
            rescheduling()
                .scheduled(ScheduleState.SCHEDULED_FAILED)
                .schedulingReason("GangTimeout", "gave up"),
            List.of(),
            expect(Stage.FAILED).events("GangTimeout")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }
}
