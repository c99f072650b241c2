package io.tyrl.arranger.controller.lifecycle.plan;

import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatusProjectionTest {

  private final LifecyclePlanner planner = new LifecyclePlanner();

  private static JobFixture starting() {
    return JobFixture.job()
        .generation(7)
        .stage(Stage.STARTING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a");
  }

  private static JobView storing(JobView job, ControllerStatus status) {
    return new JobView(
        job.namespace(), job.name(), job.generation(), job.spec(), job.scheduler(), status);
  }

  @Test
  void summarisesLeaderAndWorkerSetsFromThePods() {
    JobView view = starting().minWorkers(2).build();

    ControllerStatus status =
        planner
            .plan(
                view,
                List.of(
                    serving("train-learner").ip("10.9.8.7").build(),
                    serving("train-actor-0").build(),
                    pod("train-actor-1").running().on("node-a").build()),
                PlanCase.NOW)
            .statusPatch()
            .orElseThrow();

    assertThat(status.leader())
        .isEqualTo(
            new LeaderSummary(
                Optional.of("train-learner"),
                Optional.of("node-a"),
                Optional.of("10.9.8.7"),
                Optional.of(PodPhase.RUNNING),
                0));
    assertThat(status.workerSets()).containsExactly(new WorkerSetSummary("actor", 2, 2, 1, 0));
    assertThat(status.readyWorkers()).isEqualTo(1);
    assertThat(status.observedGeneration()).isEqualTo(7);
  }

  @Test
  void workersBeingDeletedAreNeitherCreatedNorReady() {
    JobView view = starting().stage(Stage.RUNNING).leaderObserved(PodPhase.RUNNING).build();

    ControllerStatus status =
        planner
            .plan(
                view,
                List.of(
                    serving("train-learner").build(),
                    serving("train-actor-0").build(),
                    serving("train-actor-1").deleting().build()),
                PlanCase.NOW)
            .statusPatch()
            .orElseThrow();

    assertThat(status.workerSets()).containsExactly(new WorkerSetSummary("actor", 2, 1, 1, 1));
  }

  @Test
  void aLeaderCreatedBeforeTheStatusIsWrittenIsHeldAsPending() {
    JobView view =
        JobFixture.job()
            .scheduled(ScheduleState.SCHEDULED_PARTLY)
            .allocate("train-learner", "node-a")
            .build();

    Plan plan = planner.plan(view, List.of(), PlanCase.NOW);
    ControllerStatus status = plan.statusPatch().orElseThrow();

    assertThat(plan.createsLeaderFirst()).isTrue();
    assertThat(status.leader().phase()).contains(PodPhase.PENDING);
    assertThat(status.leader().node()).contains("node-a");
  }

  @Test
  void aLeaderThatCannotBeCreatedYetHasNoPhaseSoItIsNotMistakenForALostOne() {
    JobView view =
        JobFixture.job()
            .scheduled(ScheduleState.SCHEDULED_PARTLY)
            .allocate("train-learner", "node-a")
            .build();

    Plan plan =
        planner.plan(
            view,
            List.of(),
            List.of(new ForeignPod("train-learner", "owned by ReplicaSet/other")),
            PlanCase.NOW);
    ControllerStatus status = plan.statusPatch().orElseThrow();

    assertThat(plan.creates()).isEmpty();
    assertThat(status.leader().phase()).isEmpty();
  }

  @Test
  void startTimeIsSetWhenTheJobFirstRunsAndKeptAfterwards() {
    JobView view = starting().build();
    List<PodView> pods =
        List.of(
            serving("train-learner").build(),
            serving("train-actor-0").build(),
            serving("train-actor-1").build());

    ControllerStatus firstRun = planner.plan(view, pods, PlanCase.NOW).statusPatch().orElseThrow();
    ControllerStatus later =
        planner
            .plan(storing(view, firstRun), pods, PlanCase.NOW.plusSeconds(3600))
            .statusPatch()
            .orElse(firstRun);

    assertThat(firstRun.startTime()).contains(PlanCase.NOW);
    assertThat(later.startTime()).contains(PlanCase.NOW);
    assertThat(firstRun.completionTime()).isEmpty();
  }

  @Test
  void storedTimesAreTruncatedToWholeSecondsAsTheApiKeepsThem() {
    JobView view = starting().build();

    ControllerStatus status =
        planner
            .plan(
                view,
                List.of(serving("train-learner").build(), serving("train-actor-0").build()),
                PlanCase.NOW.plusMillis(987))
            .statusPatch()
            .orElseThrow();

    assertThat(status.startTime()).contains(PlanCase.NOW);
    assertThat(status.condition(Condition.RUNNING).orElseThrow().lastTransitionTime())
        .contains(PlanCase.NOW);
  }

  @Test
  void conditionsKeepTheirTransitionTimeWhileTheirStatusHolds() {
    JobView view = JobFixture.job().build();
    ControllerStatus first =
        planner.plan(view, List.of(), PlanCase.NOW).statusPatch().orElseThrow();

    Plan again = planner.plan(storing(view, first), List.of(), PlanCase.NOW.plusSeconds(60));

    assertThat(first.condition(Condition.VALIDATED).orElseThrow().lastTransitionTime())
        .contains(PlanCase.NOW);
    assertThat(again.statusPatch()).isEmpty();
    assertThat(again.isEmpty()).isTrue();
  }

  @Test
  void aTransitionRecordsRunningAndFinishedConditions() {
    JobView view =
        starting()
            .stage(Stage.RUNNING)
            .leaderObserved(PodPhase.RUNNING)
            .started(JobFixture.EARLIER)
            .build();

    ControllerStatus status =
        planner
            .plan(
                view, List.of(pod("train-learner").succeeded().on("node-a").build()), PlanCase.NOW)
            .statusPatch()
            .orElseThrow();

    assertThat(status.condition(Condition.RUNNING).orElseThrow())
        .extracting(Condition::status, Condition::reason)
        .containsExactly(ConditionStatus.FALSE, "LeaderSucceeded");
    assertThat(status.condition(Condition.FINISHED).orElseThrow())
        .extracting(Condition::status, Condition::reason)
        .containsExactly(ConditionStatus.TRUE, "LeaderSucceeded");
    assertThat(status.completionTime()).contains(PlanCase.NOW);
    assertThat(status.startTime()).contains(JobFixture.EARLIER);
  }

  @Test
  void aChangedGenerationIsObservedEvenWhenNothingElseChanges() {
    JobView view = JobFixture.job().build();
    ControllerStatus first =
        planner.plan(view, List.of(), PlanCase.NOW).statusPatch().orElseThrow();
    JobView edited =
        new JobView(view.namespace(), view.name(), 2, view.spec(), view.scheduler(), first);

    ControllerStatus second =
        planner
            .plan(edited, List.of(), Instant.parse("2026-06-01T12:05:00Z"))
            .statusPatch()
            .orElseThrow();

    assertThat(second.observedGeneration()).isEqualTo(2);
    assertThat(second.conditions()).isEqualTo(first.conditions());
  }
}
