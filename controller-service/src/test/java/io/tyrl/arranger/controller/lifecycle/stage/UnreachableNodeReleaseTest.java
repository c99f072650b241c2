package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.LifecycleSettings;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A job being rescheduled is freed from pods stuck on a node that is not Ready, after a grace. */
class UnreachableNodeReleaseTest {

  private static final Duration GRACE = Duration.ofMinutes(5);
  private final LifecyclePlanner planner =
      new LifecyclePlanner(new LifecycleSettings(Duration.ofMinutes(5), GRACE));

  private static JobView rescheduling() {
    return job().stage(Stage.RESCHEDULING).scheduled(ScheduleState.UNSCHEDULED).build();
  }

  private static PodView stuck(String name, Instant notReadySince, Optional<Duration> toleration) {
    return new PodView(
        name,
        PodPhase.RUNNING,
        true,
        Optional.of("10.0.0.1"),
        Optional.of("lost-node"),
        true,
        Optional.empty(),
        Optional.of(notReadySince),
        toleration);
  }

  @Test
  void withinTheGraceThePodsAreLeftAndTheJobIsLookedAtAgainLater() {
    Plan plan =
        planner.plan(
            rescheduling(),
            List.of(
                stuck("train-learner", PlanCase.NOW.minus(GRACE).plusSeconds(1), Optional.empty())),
            PlanCase.NOW);

    assertThat(plan.deletes()).isEmpty();
    assertThat(plan.events()).isEmpty();
    assertThat(plan.lookAgainLater()).isTrue();
  }

  @Test
  void afterTheGraceThePodIsForceDeletedWithAWarningNamingNodeAndTime() {
    Instant since = PlanCase.NOW.minus(GRACE);
    Plan plan =
        planner.plan(
            rescheduling(), List.of(stuck("train-learner", since, Optional.empty())), PlanCase.NOW);

    assertThat(plan.deletes())
        .singleElement()
        .satisfies(
            delete -> {
              assertThat(delete.podName()).isEqualTo("train-learner");
              assertThat(delete.force()).isTrue();
              assertThat(delete.why()).isEqualTo(DeletionReason.NODE_UNREACHABLE);
            });
    assertThat(plan.events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.type()).isEqualTo(EventType.WARNING);
              assertThat(event.reason()).isEqualTo("NodeUnreachable");
              assertThat(event.message())
                  .isEqualTo(
                      "pod \"train-learner\" force-deleted: node lost-node has not been Ready since "
                          + since
                          + ", longer than its grace of 5m, so its kubelet cannot confirm the delete; the job can be placed again");
            });
    assertThat(plan.stage()).isEqualTo(Stage.RESCHEDULING);
  }

  @Test
  void thePodsOwnTolerationSecondsAreItsGrace() {
    Instant since = PlanCase.NOW.minusSeconds(30);
    Plan shortGrace =
        planner.plan(
            rescheduling(),
            List.of(stuck("train-learner", since, Optional.of(Duration.ofSeconds(20)))),
            PlanCase.NOW);
    Plan longGrace =
        planner.plan(
            rescheduling(),
            List.of(stuck("train-learner", since, Optional.of(Duration.ofSeconds(40)))),
            PlanCase.NOW);

    assertThat(shortGrace.deletes())
        .extracting(PlannedAction.DeletePod::force)
        .containsExactly(true);
    assertThat(longGrace.deletes()).isEmpty();
  }

  @Test
  void aPodOnAReadyNodeIsDeletedGracefullyOnly() {
    PodView onReadyNode =
        new PodView(
            "train-learner",
            PodPhase.RUNNING,
            true,
            Optional.of("10.0.0.1"),
            Optional.of("node-a"),
            false,
            Optional.empty());

    Plan plan = planner.plan(rescheduling(), List.of(onReadyNode), PlanCase.NOW);

    assertThat(plan.deletes()).extracting(PlannedAction.DeletePod::force).containsExactly(false);
    assertThat(plan.lookAgainLater()).isFalse();
  }
}
