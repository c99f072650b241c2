package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.PlanCase.row;
import static io.tyrl.arranger.controller.lifecycle.PlanExpectation.expect;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.PodFixture;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class TerminationTest {

  private static JobFixture running() {
    return JobFixture.job()
        .stage(Stage.RUNNING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a")
        .leaderObserved(PodPhase.RUNNING);
  }

  /**
   * A succeeded leader, one running worker, one failed worker (already given back), one pending.
   */
  private static List<PodFixture> mixedPods() {
    return List.of(
        pod("train-learner").succeeded().on("node-a"),
        serving("train-actor-0"),
        pod("train-actor-1").failed("Error").on("node-a"),
        pod("train-actor-2").on("node-a"));
  }

  private static JobFixture threeWorkers(String policy) {
    return running()
        .workerSet("actor", 3)
        .cleanPodPolicy(policy)
        .allocate("train-learner", "node-a")
        .allocate("train-actor-0", "node-a")
        .allocate("train-actor-2", "node-a");
  }

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row(
            "terminating while Pending → Succeeded",
            JobFixture.job().terminating(),
            List.of(),
            expect(Stage.SUCCEEDED).events("Terminated")),
        row(
            "terminating while Starting → Succeeded, pods cleaned up",
            JobFixture.job().stage(Stage.STARTING).terminating(),
            List.of(pod("train-learner").on("node-a")),
            expect(Stage.SUCCEEDED).deletes("train-learner").events("Terminated")),
        row(
            "terminating while Running → Succeeded, pods cleaned up",
            running().terminating(),
            List.of(serving("train-learner"), serving("train-actor-0")),
            expect(Stage.SUCCEEDED).deletes("train-learner", "train-actor-0").events("Terminated")),
        row(
            "terminating while Rescheduling → Succeeded, no restart counted",
            JobFixture.job().stage(Stage.RESCHEDULING).leaderRestarts(2).terminating(),
            List.of(),
            expect(Stage.SUCCEEDED).events("Terminated").leaderRestarts(2)),
        row(
            "terminating wins over a failed leader: the user asked to stop",
            running().terminating(),
            List.of(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.SUCCEEDED)
                .deletes("train-learner")
                .events("Terminated")
                .leaderRestarts(0)),
        row(
            "cleanPodPolicy All: every pod is deleted",
            threeWorkers("All"),
            mixedPods(),
            expect(Stage.SUCCEEDED)
                .deletes("train-learner", "train-actor-0", "train-actor-1", "train-actor-2")
                .events("LeaderSucceeded")),
        row(
            "cleanPodPolicy Running: only pods still Pending or Running are deleted",
            threeWorkers("Running"),
            mixedPods(),
            expect(Stage.SUCCEEDED)
                .deletes("train-actor-0", "train-actor-2")
                .events("LeaderSucceeded")),
        row(
            "cleanPodPolicy None: no pod is deleted",
            threeWorkers("None"),
            mixedPods(),
            expect(Stage.SUCCEEDED).events("LeaderSucceeded")),
        row(
            "pods already being deleted are not deleted again",
            running().terminating(),
            List.of(serving("train-learner").deleting(), serving("train-actor-0")),
            expect(Stage.SUCCEEDED).deletes("train-actor-0").events("Terminated")),
        row(
            "Succeeded with pods left: cleanup repeated, no event",
            running().stage(Stage.SUCCEEDED).completed(JobFixture.EARLIER),
            List.of(pod("train-learner").succeeded().on("node-a"), serving("train-actor-0")),
            expect(Stage.SUCCEEDED).deletes("train-learner", "train-actor-0")),
        row(
            "Failed with cleanPodPolicy Running: only running pods deleted",
            running().stage(Stage.FAILED).completed(JobFixture.EARLIER).cleanPodPolicy("Running"),
            List.of(
                pod("train-learner").failed("Error").on("node-a"),
                serving("train-actor-0"),
                pod("train-actor-1").unknown()),
            expect(Stage.FAILED).deletes("train-actor-0", "train-actor-1")),
        row(
            "Failed with cleanPodPolicy None: nothing to do",
            running().stage(Stage.FAILED).completed(JobFixture.EARLIER).cleanPodPolicy("None"),
            List.of(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.FAILED)),
        row(
            "terminal jobs never create pods, even with allocations",
            running().stage(Stage.SUCCEEDED).completed(JobFixture.EARLIER),
            List.of(),
            expect(Stage.SUCCEEDED)),
        row(
            "terminal jobs ignore terminating and failures",
            running()
                .stage(Stage.SUCCEEDED)
                .completed(JobFixture.EARLIER)
                .terminating()
                .cleanPodPolicy("None"),
            List.of(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.SUCCEEDED).leaderRestarts(0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }

  @ParameterizedTest
  @EnumSource(
      value = Stage.class,
      names = {"PENDING", "STARTING", "RUNNING", "RESCHEDULING"})
  void terminatingSetsCompletionTimeAndFinishedCondition(Stage stage) {
    JobView view = JobFixture.job().stage(stage).terminating().build();

    ControllerStatus status =
        new LifecyclePlanner().plan(view, List.of(), PlanCase.NOW).statusPatch().orElseThrow();

    assertThat(status.completionTime()).contains(PlanCase.NOW);
    assertThat(status.condition(Condition.FINISHED).orElseThrow())
        .extracting(Condition::status, Condition::reason)
        .containsExactly(ConditionStatus.TRUE, "Terminated");
    assertThat(status.condition(Condition.RUNNING).orElseThrow().status())
        .isEqualTo(ConditionStatus.FALSE);
  }

  @Test
  void aFinishedJobWithNothingLeftToCleanPlansNothing() {
    JobView first = running().terminating().build();
    ControllerStatus finished =
        new LifecyclePlanner().plan(first, List.of(), PlanCase.NOW).statusPatch().orElseThrow();
    JobView stored =
        new JobView(
            first.namespace(),
            first.name(),
            first.generation(),
            first.spec(),
            first.scheduler(),
            finished);

    Plan again = new LifecyclePlanner().plan(stored, List.of(), PlanCase.NOW.plusSeconds(600));

    assertThat(again.isEmpty()).isTrue();
    assertThat(again.stage()).isEqualTo(Stage.SUCCEEDED);
  }

  @Test
  void cleanupDeletionsSayWhy() {
    JobView view = running().terminating().build();

    Plan plan =
        new LifecyclePlanner().plan(view, List.of(serving("train-learner").build()), PlanCase.NOW);

    assertThat(plan.deletes())
        .singleElement()
        .extracting(PlannedAction.DeletePod::why)
        .isEqualTo(DeletionReason.JOB_FINISHED);
  }
}
