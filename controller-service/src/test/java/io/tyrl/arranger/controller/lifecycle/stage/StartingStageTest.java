package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.PlanCase.row;
import static io.tyrl.arranger.controller.lifecycle.PlanExpectation.expect;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StartingStageTest {

  private static JobFixture starting() {
    return JobFixture.job()
        .stage(Stage.STARTING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a");
  }

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row(
            "leader has no IP yet: no worker is created",
            starting(),
            List.of(pod("train-learner").on("node-a")),
            expect(Stage.STARTING)),
        row(
            "leader has an IP: every allocated worker is created",
            starting(),
            List.of(pod("train-learner").on("node-a").ip("10.0.0.9")),
            expect(Stage.STARTING).creates("train-actor-0", "train-actor-1")),
        row(
            "only allocated workers are created",
            JobFixture.job()
                .stage(Stage.STARTING)
                .scheduled(ScheduleState.SCHEDULED_PARTLY)
                .allocate("train-learner", "node-a")
                .allocate("train-actor-0", "node-b"),
            List.of(pod("train-learner").on("node-a").ip("10.0.0.9")),
            expect(Stage.STARTING).creates("train-actor-0")),
        row(
            "leader running and minWorkersNum (1) ready → Running, the rest still created",
            starting(),
            List.of(serving("train-learner"), serving("train-actor-0")),
            expect(Stage.RUNNING).creates("train-actor-1").events("Started")),
        row(
            "leader running, no worker ready yet: stays Starting",
            starting(),
            List.of(
                serving("train-learner"),
                pod("train-actor-0").running().on("node-a"),
                pod("train-actor-1").on("node-a")),
            expect(Stage.STARTING)),
        row(
            "minWorkersNum 2 with one ready: stays Starting",
            starting().minWorkers(2),
            List.of(
                serving("train-learner"),
                serving("train-actor-0"),
                pod("train-actor-1").on("node-a")),
            expect(Stage.STARTING)),
        row(
            "minWorkersNum 2 with all ready → Running",
            starting().minWorkers(2),
            List.of(serving("train-learner"), serving("train-actor-0"), serving("train-actor-1")),
            expect(Stage.RUNNING).events("Started")),
        row(
            "minWorkersNum 0: a running leader is enough → Running",
            starting().minWorkers(0),
            List.of(serving("train-learner")),
            expect(Stage.RUNNING).creates("train-actor-0", "train-actor-1").events("Started")),
        row(
            "workers ready but leader still Pending: stays Starting",
            starting(),
            List.of(
                pod("train-learner").on("node-a").ip("10.0.0.9"),
                serving("train-actor-0"),
                serving("train-actor-1")),
            expect(Stage.STARTING)),
        row(
            "leader's create was lost (never seen, still allocated): created again, not counted",
            starting(),
            List.of(),
            expect(Stage.STARTING).creates("train-learner").leaderRestarts(0)),
        row(
            "leader deleted after it was seen → Rescheduling, everything given back",
            starting().leaderObserved(PodPhase.RUNNING),
            List.of(serving("train-actor-0")),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-0")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderDeleted")
                .leaderRestarts(1)),
        row(
            "leader Succeeded while starting → Succeeded",
            starting(),
            List.of(pod("train-learner").succeeded().on("node-a"), serving("train-actor-0")),
            expect(Stage.SUCCEEDED)
                .deletes("train-learner", "train-actor-0")
                .events("LeaderSucceeded")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }

  @Test
  void givesWorkersTheLeadersAddressAndTheirPlaceInTheJob() {
    JobView view =
        JobFixture.job()
            .stage(Stage.STARTING)
            .scheduled(ScheduleState.SCHEDULED_PARTLY)
            .allocate("train-learner", "node-a")
            .allocate("train-actor-1", "node-b")
            .build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                view,
                List.of(pod("train-learner").on("node-a").ip("10.1.2.3").build()),
                PlanCase.NOW);

    PlannedAction.CreatePod create = plan.creates().get(0);
    assertThat(create.slot()).isEqualTo(new PodSlot.Worker("train-actor-1", "actor", 1));
    assertThat(create.nodeName()).isEqualTo("node-b");
    assertThat(create.leaderAddress()).contains("10.1.2.3");
    assertThat(create.environment().variables())
        .isEqualTo(
            Map.of(
                "TYJOB_LEADER_ADDR", "10.1.2.3",
                "TYJOB_NAME", "train",
                "TYJOB_ROLE", "worker",
                "TYJOB_WORKER_SET", "actor",
                "TYJOB_WORKER_INDEX", "1"));
  }

  @Test
  void doesNotGiveWorkersTheAddressOfALeaderBeingDeleted() {
    JobView view =
        JobFixture.job()
            .stage(Stage.STARTING)
            .scheduled(ScheduleState.SCHEDULED_SUCCEED)
            .allocateAll("node-a")
            .build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                view,
                List.of(
                    pod("train-learner").running().on("node-a").ip("10.1.2.3").deleting().build()),
                PlanCase.NOW);

    assertThat(plan.creates()).isEmpty();
    assertThat(plan.stage()).isEqualTo(Stage.RESCHEDULING);
  }
}
