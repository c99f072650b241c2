package io.tyrl.arranger.controller.lifecycle.stage;

import static io.tyrl.arranger.controller.lifecycle.PlanCase.row;
import static io.tyrl.arranger.controller.lifecycle.PlanExpectation.expect;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.pod;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.PodFixture;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RunningStageTest {

  private static JobFixture running() {
    return JobFixture.job()
        .stage(Stage.RUNNING)
        .scheduled(ScheduleState.SCHEDULED_SUCCEED)
        .allocateAll("node-a")
        .leaderObserved(PodPhase.RUNNING);
  }

  private static List<PodFixture> workers() {
    return List.of(serving("train-actor-0"), serving("train-actor-1"));
  }

  private static List<PodFixture> with(PodFixture leader) {
    return List.of(leader, serving("train-actor-0"), serving("train-actor-1"));
  }

  static Stream<Arguments> transitions() {
    return PlanCase.table(
        row(
            "healthy job: nothing to do",
            running(),
            with(serving("train-learner")),
            expect(Stage.RUNNING)),
        row(
            "a worker newly allocated by the scheduler is created",
            running(),
            List.of(serving("train-learner"), serving("train-actor-0")),
            expect(Stage.RUNNING).creates("train-actor-1")),
        row(
            "leader Succeeded → Succeeded, pods cleaned up",
            running(),
            with(pod("train-learner").succeeded().on("node-a")),
            expect(Stage.SUCCEEDED)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderSucceeded")),
        row(
            "leader failed → Rescheduling, restart counted, all deleted and given back",
            running(),
            with(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.RESCHEDULING)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderFailed")
                .leaderRestarts(1)),
        row(
            "leader evicted → Rescheduling, restart counted",
            running().leaderRestarts(1),
            with(pod("train-learner").failed("Evicted").on("node-a")),
            expect(Stage.RESCHEDULING)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderEvicted")
                .leaderRestarts(2)),
        row(
            "leader being deleted (preempted, drained) → Rescheduling",
            running(),
            with(serving("train-learner").deleting()),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderDeleted")
                .leaderRestarts(1)),
        row(
            "leader gone (node removed, force-deleted) → Rescheduling",
            running(),
            workers(),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderDeleted")
                .leaderRestarts(1)),
        row(
            "the leader's restart that reaches restartLimit is still allowed → Rescheduling",
            running().leaderRestarts(2),
            with(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.RESCHEDULING)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderFailed")
                .leaderRestarts(3)),
        row(
            "leader failed at restartLimit → Failed, nothing given back",
            running().leaderRestarts(3),
            with(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.FAILED)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .events("RestartLimitExceeded")
                .leaderRestarts(4)),
        row(
            "restartLimit 0: the first leader loss fails the job",
            running().restartLimit(0),
            with(pod("train-learner").failed("Error").on("node-a")),
            expect(Stage.FAILED)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .events("RestartLimitExceeded")
                .leaderRestarts(1)),
        row(
            "leader refused by the kubelet (OutOfcpu) at restartLimit → Rescheduling, not counted",
            running().leaderRestarts(3),
            with(pod("train-learner").failed("OutOfcpu").on("node-a")),
            expect(Stage.RESCHEDULING)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderRejected")
                .leaderRestarts(3)),
        row(
            "leader refused by the kubelet (NodeAffinity) → Rescheduling, not counted",
            running(),
            with(pod("train-learner").failed("NodeAffinity").on("node-a")),
            expect(Stage.RESCHEDULING)
                .deletes("train-learner", "train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderRejected")
                .leaderRestarts(0)),
        row(
            "leader evicted for another job, restartLimit 0 → Rescheduling as Preempted, not counted, note cleared",
            running()
                .restartLimit(0)
                .evicted(
                    "Preempted",
                    "preempted by ns/high (priority 8 > 5)",
                    "train-learner",
                    "train-actor-0",
                    "train-actor-1"),
            List.of(
                serving("train-learner").deleting(),
                serving("train-actor-0").deleting(),
                serving("train-actor-1")),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("Preempted")
                .leaderRestarts(0)
                .evictionKept(false)),
        row(
            "leader evicted for another job and already gone → Rescheduling as Reclaimed, not counted",
            running().evicted("Reclaimed", "reclaimed by queue q for ns/other", "train-learner"),
            workers(),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("Reclaimed")
                .leaderRestarts(0)
                .evictionKept(false)),
        row(
            "a note naming other pods does not excuse the leader's loss",
            running().evicted("Preempted", "preempted by ns/high", "train-actor-1"),
            workers(),
            expect(Stage.RESCHEDULING)
                .deletes("train-actor-0", "train-actor-1")
                .releases("train-learner", "train-actor-0", "train-actor-1")
                .events("LeaderDeleted")
                .leaderRestarts(1)),
        row(
            "an elastic worker evicted for another job is given back, not counted; the note stays while it is there",
            running().evicted("Preempted", "preempted by ns/high", "train-actor-1"),
            List.of(
                serving("train-learner"),
                serving("train-actor-0"),
                serving("train-actor-1").deleting()),
            expect(Stage.RUNNING)
                .releases("train-actor-1")
                .events("Preempted")
                .workerSetRestarts("actor", 0)
                .evictionKept(true)),
        row(
            "once the evicted worker is gone the note is cleared",
            running().evicted("Preempted", "preempted by ns/high", "train-actor-1"),
            List.of(serving("train-learner"), serving("train-actor-0")),
            expect(Stage.RUNNING).creates("train-actor-1").evictionKept(false)),
        row(
            "leader's node unreachable (phase Unknown): waits for the node lifecycle to decide",
            running(),
            with(pod("train-learner").unknown().on("node-a").ip("10.0.0.1")),
            expect(Stage.RUNNING).leaderRestarts(0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transitions")
  void plansTheTransition(PlanCase planCase) {
    planCase.verify();
  }
}
