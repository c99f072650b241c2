package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod of another owner under a name the job needs is never adopted; the job waits and says why.
 */
class PodNameConflictTest {

  private final LifecyclePlanner planner = new LifecyclePlanner();

  @Test
  void aForeignPodUnderTheLeadersNameKeepsTheJobPendingWithAConflictReportedOnce() {
    JobView placed = job().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-a").build();
    List<ForeignPod> foreign =
        List.of(new ForeignPod("train-learner", "owned by ReplicaSet/web-1"));

    Plan first = planner.plan(placed, List.of(), foreign, PlanCase.NOW);

    assertThat(first.stage()).isEqualTo(Stage.PENDING);
    assertThat(first.creates()).isEmpty();
    assertThat(first.events())
        .extracting(PlannedAction.EmitEvent::reason)
        .containsExactly("PodNameConflict");
    Condition conflict =
        first.statusPatch().orElseThrow().condition(Condition.POD_NAME_CONFLICT).orElseThrow();
    assertThat(conflict.status()).isEqualTo(ConditionStatus.TRUE);
    assertThat(conflict.message())
        .isEqualTo(
            "pod \"train-learner\" exists and is not this job's (owned by ReplicaSet/web-1);"
                + " it is not adopted: delete or rename it, and the job goes on once the name is free");
    assertThat(first.events().get(0).message()).isEqualTo(conflict.message());

    JobView reported = withStatus(placed, first.statusPatch().orElseThrow());
    Plan again = planner.plan(reported, List.of(), foreign, PlanCase.NOW.plusSeconds(30));
    assertThat(again.isEmpty())
        .as("the same conflict is neither written nor announced again")
        .isTrue();

    Plan freed = planner.plan(reported, List.of(), List.of(), PlanCase.NOW.plusSeconds(60));
    assertThat(freed.stage()).isEqualTo(Stage.STARTING);
    assertThat(freed.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .containsExactly("train-learner");
    assertThat(
            freed
                .statusPatch()
                .orElseThrow()
                .condition(Condition.POD_NAME_CONFLICT)
                .orElseThrow()
                .status())
        .isEqualTo(ConditionStatus.FALSE);
  }

  @Test
  void aForeignPodUnderAWorkersNameHoldsBackOnlyThatWorker() {
    JobView starting =
        job()
            .stage(Stage.STARTING)
            .scheduled(ScheduleState.SCHEDULED_SUCCEED)
            .allocateAll("node-a")
            .leaderObserved(PodPhase.RUNNING)
            .build();

    Plan plan =
        planner.plan(
            starting,
            List.of(serving("train-learner").build()),
            List.of(
                new ForeignPod("train-actor-1", null),
                new ForeignPod("unrelated", "owned by Job/x")),
            PlanCase.NOW);

    assertThat(plan.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .containsExactly("train-actor-0");
    assertThat(
            plan.statusPatch()
                .orElseThrow()
                .condition(Condition.POD_NAME_CONFLICT)
                .orElseThrow()
                .message())
        .startsWith("pod \"train-actor-1\" exists and is not this job's (no owner)");
  }

  @Test
  void aPodOfAnotherOwnerUnderANameTheJobDoesNotUseIsNoConflict() {
    JobView placed = job().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-a").build();

    Plan plan =
        planner.plan(
            placed,
            List.of(),
            List.of(new ForeignPod("train-actor-9", "owned by Job/x")),
            PlanCase.NOW);

    assertThat(plan.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .containsExactly("train-learner");
    assertThat(plan.statusPatch().orElseThrow().condition(Condition.POD_NAME_CONFLICT)).isEmpty();
    assertThat(plan.events())
        .extracting(PlannedAction.EmitEvent::reason)
        .doesNotContain("PodNameConflict");
  }

  @Test
  void aConflictWhoseWordsChangeIsAnnouncedAgainAndOneClearedStaysSo() {
    JobView placed = job().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-a").build();
    Plan first =
        planner.plan(
            placed,
            List.of(),
            List.of(new ForeignPod("train-learner", "owned by ReplicaSet/web-1")),
            PlanCase.NOW);
    JobView reported = withStatus(placed, first.statusPatch().orElseThrow());

    Plan otherOwner =
        planner.plan(
            reported,
            List.of(),
            List.of(new ForeignPod("train-learner", "no owner")),
            PlanCase.NOW.plusSeconds(30));
    assertThat(otherOwner.events())
        .extracting(PlannedAction.EmitEvent::message)
        .containsExactly(
            otherOwner
                .statusPatch()
                .orElseThrow()
                .condition(Condition.POD_NAME_CONFLICT)
                .orElseThrow()
                .message());

    Plan freed = planner.plan(reported, List.of(), List.of(), PlanCase.NOW.plusSeconds(60));
    JobView cleared = withStatus(reported, freed.statusPatch().orElseThrow());
    Condition free = cleared.status().condition(Condition.POD_NAME_CONFLICT).orElseThrow();
    assertThat(free.reason()).isEqualTo("NameFree");
    Plan later = planner.plan(cleared, List.of(), List.of(), PlanCase.NOW.plusSeconds(90));
    assertThat(
            later
                .statusPatch()
                .map(status -> status.condition(Condition.POD_NAME_CONFLICT).orElseThrow())
                .orElse(free))
        .as("a False condition is left as it is")
        .isEqualTo(free);
    assertThat(later.events())
        .extracting(PlannedAction.EmitEvent::reason)
        .doesNotContain("PodNameConflict");
  }

  private static JobView withStatus(JobView job, ControllerStatus status) {
    return new JobView(
        job.namespace(), job.name(), job.generation(), job.spec(), job.scheduler(), status);
  }
}
