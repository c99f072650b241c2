package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static io.tyrl.arranger.controller.lifecycle.PlanCase.row;
import static io.tyrl.arranger.controller.lifecycle.PlanExpectation.expect;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PendingStageTest {

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row("no schedule state yet: waits", job(), List.of(), expect(Stage.PENDING)),
        row(
            "Unscheduled with a stray leader allocation: still waits for the scheduler's verdict",
            job().scheduled(ScheduleState.UNSCHEDULED).allocate("train-learner", "node-a"),
            List.of(),
            expect(Stage.PENDING)),
        row(
            "ScheduledPartly: leader created on its node → Starting",
            job().scheduled(ScheduleState.SCHEDULED_PARTLY).allocate("train-learner", "node-a"),
            List.of(),
            expect(Stage.STARTING).creates("train-learner").events("LeaderCreated")),
        row(
            "ScheduledSucceed: only the leader is created, workers wait for its IP",
            job().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-a"),
            List.of(),
            expect(Stage.STARTING).creates("train-learner").events("LeaderCreated")),
        row(
            "placed but the leader has no allocation: waits",
            job().scheduled(ScheduleState.SCHEDULED_PARTLY).allocate("train-actor-0", "node-a"),
            List.of(),
            expect(Stage.PENDING)),
        row(
            "leader already exists (its status write was lost): not created again, → Starting",
            job().scheduled(ScheduleState.SCHEDULED_SUCCEED).allocateAll("node-a"),
            List.of(pod("train-learner").on("node-a")),
            expect(Stage.STARTING).events("LeaderCreated")),
        row(
            "ScheduledFailed: Failed with the scheduler's reason",
            job()
                .scheduled(ScheduleState.SCHEDULED_FAILED)
                .schedulingReason("GangTimeout", "waited 10m for 3 workers"),
            List.of(),
            expect(Stage.FAILED).events("GangTimeout")),
        row(
            "ScheduledFailed without a reason: Failed as ScheduledFailed",
            job().scheduled(ScheduleState.SCHEDULED_FAILED),
            List.of(),
            expect(Stage.FAILED).events("ScheduledFailed")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }

  @Test
  void createsTheLeaderOnItsAllocatedNodeWithTheLeaderEnvironment() {
    JobView view =
        job().scheduled(ScheduleState.SCHEDULED_PARTLY).allocate("train-learner", "gpu-7").build();

    Plan plan = new LifecyclePlanner().plan(view, List.of(), PlanCase.NOW);

    PlannedAction.CreatePod create = plan.creates().get(0);
    assertThat(create.slot()).isEqualTo(new PodSlot.Leader("train-learner", "learner"));
    assertThat(create.role()).isEqualTo(PodRole.LEADER);
    assertThat(create.nodeName()).isEqualTo("gpu-7");
    assertThat(create.leaderAddress()).isEmpty();
    assertThat(create.environment().variables())
        .isEqualTo(Map.of("TYJOB_NAME", "train", "TYJOB_ROLE", "leader"));
  }

  @Test
  void passesTheSchedulersMessageIntoTheFailure() {
    JobView view =
        job()
            .scheduled(ScheduleState.SCHEDULED_FAILED)
            .schedulingReason("Unschedulable", "pod larger than any node")
            .build();

    Plan plan = new LifecyclePlanner().plan(view, List.of(), PlanCase.NOW);

    assertThat(plan.events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.type()).isEqualTo(EventType.WARNING);
              assertThat(event.message()).isEqualTo("pod larger than any node");
            });
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.FINISHED).orElseThrow().reason())
        .isEqualTo("Unschedulable");
  }
}
