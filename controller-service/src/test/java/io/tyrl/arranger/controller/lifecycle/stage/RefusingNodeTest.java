package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.LifecycleSettings;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node whose kubelet refused a pod of the job is written down for the scheduler to avoid, for a
 * while.
 */
class RefusingNodeTest {

  private static final Duration AVOIDANCE = Duration.ofMinutes(7);
  private final LifecyclePlanner planner =
      new LifecyclePlanner(new LifecycleSettings(AVOIDANCE, Duration.ofMinutes(5)));

  private static JobFixture running() {
    return job()
        .stage(Stage.RUNNING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a")
        .leaderObserved(PodPhase.RUNNING);
  }

  @Test
  void aLeaderRefusedByTheKubeletMakesItsNodeAvoidedAndTheMessageSaysUntilWhen() {
    Plan plan =
        planner.plan(
            running().build(),
            List.of(
                pod("train-learner").failed("OutOfcpu").on("node-a").build(),
                serving("train-actor-0").build(),
                serving("train-actor-1").build()),
            PlanCase.NOW);

    ControllerStatus status = plan.statusPatch().orElseThrow();
    assertThat(status.stage()).isEqualTo(Stage.RESCHEDULING);
    assertThat(status.avoidNodes())
        .containsExactly(new AvoidedNodeEntry("node-a", "OutOfcpu", PlanCase.NOW.plus(AVOIDANCE)));
    assertThat(plan.events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.reason()).isEqualTo("LeaderRejected");
              assertThat(event.message())
                  .contains(
                      "node node-a is avoided for this job until " + PlanCase.NOW.plus(AVOIDANCE));
            });
  }

  @Test
  void aWorkerRefusedByTheKubeletMakesItsNodeAvoidedOnceWhileItsAllocationIsGivenBack() {
    JobView view = running().allocate("train-actor-1", "node-b").build();
    Plan plan =
        planner.plan(
            view,
            List.of(
                serving("train-learner").build(),
                serving("train-actor-0").build(),
                pod("train-actor-1").failed("OutOfnvidia.com/gpu").on("node-b").build()),
            PlanCase.NOW);

    assertThat(plan.releases())
        .extracting(PlannedAction.ReleaseAllocation::podName)
        .containsExactly("train-actor-1");
    assertThat(plan.statusPatch().orElseThrow().avoidNodes())
        .containsExactly(
            new AvoidedNodeEntry("node-b", "OutOfnvidia.com/gpu", PlanCase.NOW.plus(AVOIDANCE)));
    assertThat(plan.events())
        .extracting(PlannedAction.EmitEvent::message)
        .anySatisfy(
            message -> assertThat(message).contains("node node-b is avoided for this job until"));
  }

  @Test
  void anAvoidanceThatHasRunOutIsDroppedAndOneStillRunningIsKept() {
    AvoidedNodeEntry over =
        new AvoidedNodeEntry("node-x", "OutOfcpu", PlanCase.NOW.minusSeconds(1));
    AvoidedNodeEntry current =
        new AvoidedNodeEntry("node-y", "OutOfmemory", PlanCase.NOW.plusSeconds(60));
    Plan plan =
        planner.plan(
            running().avoiding(over, current).build(),
            List.of(
                serving("train-learner").build(),
                serving("train-actor-0").build(),
                serving("train-actor-1").build()),
            PlanCase.NOW);

    assertThat(plan.statusPatch().orElseThrow().avoidNodes()).containsExactly(current);
  }
}
