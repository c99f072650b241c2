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
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkerFailureTest {

  /** Running, with WorkerSets actor×2 and evaluator×1, everything allocated on node-a. */
  private static JobFixture running() {
    return JobFixture.job()
        .workerSet("actor", 2)
        .workerSet("evaluator", 1)
        .stage(Stage.RUNNING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a")
        .leaderObserved(PodPhase.RUNNING);
  }

  private static List<PodFixture> with(PodFixture actor0) {
    return List.of(
        serving("train-learner"), actor0, serving("train-actor-1"), serving("train-evaluator-0"));
  }

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row(
            "failed worker: deleted, slot given back, counted",
            running(),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 1)
                .workerSetRestarts("evaluator", 0)
                .leaderRestarts(0)),
        row(
            "evicted worker: counted like a failure",
            running(),
            with(pod("train-actor-0").failed("Evicted").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 1)),
        row(
            "worker being deleted (preempted): given back and counted, not deleted twice",
            running(),
            with(serving("train-actor-0").deleting()),
            expect(Stage.RUNNING)
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 1)),
        row(
            "a second failure in the same set adds to its count",
            running().workerSetRestarts("actor", 1).allocate("train-actor-0", "node-a"),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 2)),
        row(
            "failed worker whose allocation is gone: only deleted",
            JobFixture.job()
                .workerSet("actor", 2)
                .workerSet("evaluator", 1)
                .stage(Stage.RUNNING)
                .scheduled(ScheduleState.SCHEDULED_PARTLY)
                .allocate("train-learner", "node-a")
                .allocate("train-actor-1", "node-a")
                .allocate("train-evaluator-0", "node-a")
                .leaderObserved(PodPhase.RUNNING)
                .workerSetRestarts("actor", 1),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.RUNNING).deletes("train-actor-0").workerSetRestarts("actor", 1)),
        row(
            "failed pod left from an older placement on another node: deleted, not counted, allocation kept",
            running().allocate("train-actor-0", "node-b"),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.RUNNING).deletes("train-actor-0").workerSetRestarts("actor", 0)),
        row(
            "worker refused by the kubelet (OutOfmemory): given back, not counted",
            running().workerSetRestarts("actor", 3),
            with(pod("train-actor-0").failed("OutOfmemory").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerRejected")
                .workerSetRestarts("actor", 3)),
        row(
            "worker refused for an extended resource (OutOfnvidia.com/gpu): not counted",
            running(),
            with(pod("train-actor-0").failed("OutOfnvidia.com/gpu").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerRejected")
                .workerSetRestarts("actor", 0)),
        row(
            "worker refused for OutOfpods: not counted",
            running(),
            with(pod("train-actor-0").failed("OutOfpods").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerRejected")
                .workerSetRestarts("actor", 0)),
        row(
            "a WorkerSet beyond its restartLimit fails the job",
            running().workerSetRestarts("actor", 3),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.FAILED)
                .deletes("train-learner", "train-actor-0", "train-actor-1", "train-evaluator-0")
                .releases("train-actor-0")
                .events("WorkerLost", "WorkerSetRestartLimitExceeded")
                .workerSetRestarts("actor", 4)),
        row(
            "each WorkerSet has its own counter: evaluator at its limit does not stop an actor restart",
            running().workerSetRestarts("evaluator", 3),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.RUNNING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 1)
                .workerSetRestarts("evaluator", 3)),
        row(
            "evaluator beyond its limit fails the job",
            running().workerSetRestarts("evaluator", 3).cleanPodPolicy("None"),
            List.of(
                serving("train-learner"),
                serving("train-actor-0"),
                serving("train-actor-1"),
                pod("train-evaluator-0").failed("Error").on("node-a")),
            expect(Stage.FAILED)
                .deletes("train-evaluator-0")
                .releases("train-evaluator-0")
                .events("WorkerLost", "WorkerSetRestartLimitExceeded")
                .workerSetRestarts("evaluator", 4)),
        row(
            "restartLimit 0: the first worker loss fails the job",
            running().restartLimit(0).cleanPodPolicy("None"),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.FAILED)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost", "WorkerSetRestartLimitExceeded")
                .workerSetRestarts("actor", 1)),
        row(
            "a worker failing while Starting is handled the same way",
            running().stage(Stage.STARTING).minWorkers(3),
            with(pod("train-actor-0").failed("Error").on("node-a")),
            expect(Stage.STARTING)
                .deletes("train-actor-0")
                .releases("train-actor-0")
                .events("WorkerLost")
                .workerSetRestarts("actor", 1)),
        row(
            "a completed worker is left alone",
            running(),
            with(pod("train-actor-0").succeeded().on("node-a")),
            expect(Stage.RUNNING).workerSetRestarts("actor", 0)),
        row(
            "a pod beyond the spec's counts (after a scale-down) is removed and given back",
            running().allocate("train-actor-5", "node-a"),
            List.of(
                serving("train-learner"),
                serving("train-actor-0"),
                serving("train-actor-1"),
                serving("train-evaluator-0"),
                serving("train-actor-5")),
            expect(Stage.RUNNING)
                .deletes("train-actor-5")
                .releases("train-actor-5")
                .workerSetRestarts("actor", 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }

  @Test
  void theEventOfALostWorkerNamesPodSetAndCount() {
    JobView view = running().workerSetRestarts("actor", 1).build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                view,
                with(pod("train-actor-0").failed("Error").on("node-a")).stream()
                    .map(PodFixture::build)
                    .toList(),
                PlanCase.NOW);

    assertThat(plan.events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.type()).isEqualTo(EventType.WARNING);
              assertThat(event.message())
                  .contains(
                      "\"train-actor-0\"",
                      "workerSet \"actor\"",
                      "node-a",
                      "Error",
                      "restart 2 of 3");
            });
    assertThat(plan.deletes())
        .singleElement()
        .extracting(PlannedAction.DeletePod::why)
        .isEqualTo(DeletionReason.WORKER_FAILED);
  }

  @Test
  void aReleasedWorkerIsNotCreatedAgainInTheSamePlan() {
    JobView view = running().build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                view,
                with(pod("train-actor-0").failed("OutOfcpu").on("node-a")).stream()
                    .map(PodFixture::build)
                    .toList(),
                PlanCase.NOW);

    assertThat(plan.creates()).isEmpty();
    assertThat(plan.deletes())
        .singleElement()
        .extracting(PlannedAction.DeletePod::why)
        .isEqualTo(DeletionReason.REJECTED_BY_KUBELET);
  }

  @Test
  void aWorkerSetOverItsRestartLimitFailsAStartingJobEvenWithEnoughWorkersReady() {
    JobView starting =
        JobFixture.job()
            .restartLimit(0)
            .minWorkers(1)
            .stage(Stage.STARTING)
            .scheduled(ScheduleState.SCHEDULED_SUCCEED)
            .allocateAll("node-a")
            .leaderObserved(PodPhase.RUNNING)
            .build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                starting,
                List.of(
                    serving("train-learner").build(),
                    pod("train-actor-0").failed("Error").on("node-a").build(),
                    serving("train-actor-1").build()),
                PlanCase.NOW);

    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(plan.events())
        .extracting(PlannedAction.EmitEvent::reason)
        .contains("WorkerSetRestartLimitExceeded")
        .doesNotContain("Started");
    assertThat(plan.creates()).isEmpty();
  }
}
