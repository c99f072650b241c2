package io.tyrl.arranger.controller.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plans are applied (fully or in part) to a {@link FakeCluster} and planned again, as a restarted
 * or retrying controller would: no pod may be created twice, no loss counted twice.
 */
class IdempotenceTest {

  private static final Map<String, String> ALL_ON_NODE_A =
      Map.of("train-learner", "node-a", "train-actor-0", "node-a", "train-actor-1", "node-a");

  private static FakeCluster runningCluster() {
    FakeCluster cluster = FakeCluster.running(ALL_ON_NODE_A);
    assertThat(cluster.job().status().stage()).isEqualTo(Stage.RUNNING);
    return cluster;
  }

  @Test
  void aFullStartCreatesEveryPodOnceAndThenSettles() {
    FakeCluster cluster = runningCluster();

    for (int i = 0; i < 3; i++) {
      Plan plan = cluster.step();
      assertThat(plan.isEmpty()).as("plan %d after settling", i).isTrue();
    }
    assertThat(cluster.createdPods())
        .containsExactly("train-learner", "train-actor-0", "train-actor-1");
    assertThat(cluster.refusedCreates()).isEmpty();
  }

  @Test
  void planningTwiceFromTheSameStateGivesTheSamePlan() {
    FakeCluster cluster = new FakeCluster(JobFixture.job().build());
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, ALL_ON_NODE_A);
    LifecyclePlanner planner = new LifecyclePlanner();

    Plan first = planner.plan(cluster.job(), List.copyOf(cluster.pods().values()), PlanCase.NOW);
    Plan second = planner.plan(cluster.job(), List.copyOf(cluster.pods().values()), PlanCase.NOW);

    assertThat(second).isEqualTo(first);
  }

  @Test
  void aPlanWhoseLeaderCreateFailedIsRepeatedWithoutDuplicates() {
    FakeCluster cluster = new FakeCluster(JobFixture.job().build());
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, ALL_ON_NODE_A);

    Plan first = cluster.plan();
    // The leader's create comes first: when it fails, nothing of the plan is applied.
    assertThat(first.createsLeaderFirst()).isTrue();
    Plan retry = cluster.step();

    assertThat(retry.creates()).isEqualTo(first.creates());
    assertThat(retry.events()).isEqualTo(first.events());
    assertThat(retry.statusPatch().orElseThrow().stage())
        .isEqualTo(first.statusPatch().orElseThrow().stage());
    assertThat(cluster.job().status().stage()).isEqualTo(Stage.STARTING);
    assertThat(cluster.createdPods()).containsExactly("train-learner");
    assertThat(cluster.step().creates()).isEmpty();
  }

  @Test
  void aPlanWhoseWorkerCreatesFailedAfterItsStatusWriteIsRepeatedWithoutDuplicates() {
    FakeCluster cluster = new FakeCluster(JobFixture.job().build());
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, ALL_ON_NODE_A);
    cluster.step();
    cluster.run("train-learner", "10.0.0.1");

    Plan first = cluster.plan();
    assertThat(first.createsLeaderFirst()).isFalse();
    cluster.applyStatus(first);
    Plan retry = cluster.step();

    assertThat(retry.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .containsExactly("train-actor-0", "train-actor-1");
    assertThat(cluster.createdPods())
        .containsExactly("train-learner", "train-actor-0", "train-actor-1");
    assertThat(cluster.step().creates()).isEmpty();
  }

  @Test
  void aWorkerLossIsCountedOnceEvenIfItsDeleteHadToBeRetried() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-actor-0", "Error");

    Plan loss = cluster.plan();
    cluster.applyStatus(loss);
    Plan retry = cluster.step();
    cluster.finishDeletions();
    Plan afterwards = cluster.step();

    assertThat(loss.releases())
        .extracting(PlannedAction.ReleaseAllocation::podName)
        .containsExactly("train-actor-0");
    assertThat(retry.deletes())
        .extracting(PlannedAction.DeletePod::podName)
        .containsExactly("train-actor-0");
    assertThat(retry.releases()).isEmpty();
    assertThat(cluster.job().status().workerSetRestarts("actor")).isEqualTo(1);
    assertThat(afterwards.creates())
        .as("no create until the scheduler places the slot again")
        .isEmpty();
  }

  @Test
  void aReplacedWorkerIsCreatedOnceTheSchedulerPlacesItAgain() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-actor-1", "Error");
    cluster.step();
    cluster.finishDeletions();
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, Map.of("train-actor-1", "node-b"));

    Plan replacement = cluster.step();
    Plan again = cluster.step();

    assertThat(replacement.creates())
        .singleElement()
        .satisfies(
            create -> {
              assertThat(create.podName()).isEqualTo("train-actor-1");
              assertThat(create.nodeName()).isEqualTo("node-b");
              assertThat(create.leaderAddress()).contains("10.0.0.1");
            });
    assertThat(again.creates()).isEmpty();
    assertThat(cluster.refusedCreates()).isEmpty();
    assertThat(cluster.job().status().workerSetRestarts("actor")).isEqualTo(1);
  }

  @Test
  void aLeaderLossIsCountedOnceAndTheJobComesBackThroughRescheduling() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-learner", "Error");

    Plan loss = cluster.step();
    Plan waiting = cluster.step();
    cluster.finishDeletions();
    Plan stillWaiting = cluster.step();
    cluster.schedule(
        ScheduleState.SCHEDULED_SUCCEED,
        Map.of("train-learner", "node-c", "train-actor-0", "node-c", "train-actor-1", "node-c"));
    Plan recreated = cluster.step();
    Plan noDuplicate = cluster.step();

    assertThat(loss.stage()).isEqualTo(Stage.RESCHEDULING);
    assertThat(waiting.deletes()).isEmpty();
    assertThat(waiting.releases()).isEmpty();
    assertThat(stillWaiting.stage()).isEqualTo(Stage.RESCHEDULING);
    assertThat(recreated.stage()).isEqualTo(Stage.STARTING);
    assertThat(recreated.creates())
        .extracting(PlannedAction.CreatePod::nodeName)
        .containsExactly("node-c");
    assertThat(noDuplicate.creates()).isEmpty();
    assertThat(noDuplicate.stage()).isEqualTo(Stage.STARTING);
    assertThat(cluster.job().status().leader().restarts()).isEqualTo(1);
    assertThat(cluster.refusedCreates()).isEmpty();
  }

  @Test
  void aNewAllocationArrivingDuringReschedulingIsNotGivenBackAgain() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-learner", "Error");
    cluster.step();
    cluster.schedule(ScheduleState.SCHEDULED_PARTLY, Map.of("train-learner", "node-c"));

    Plan whileOldPodsTerminate = cluster.step();

    assertThat(whileOldPodsTerminate.releases()).isEmpty();
    assertThat(cluster.job().scheduler().allocations()).containsEntry("train-learner", "node-c");
  }

  @Test
  void aRejectionNeverCountsNoMatterHowOftenItIsPlanned() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-actor-0", "OutOfcpu");

    for (int i = 0; i < 3; i++) {
      cluster.step();
    }

    assertThat(cluster.job().status().workerSetRestarts("actor")).isZero();
    assertThat(cluster.job().scheduler().allocations()).doesNotContainKey("train-actor-0");
  }

  @Test
  void noPlanEverCreatesAPodThatExists() {
    FakeCluster cluster = runningCluster();
    cluster.fail("train-actor-0", "Error");
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, ALL_ON_NODE_A);

    Plan plan = cluster.plan();

    assertThat(plan.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .doesNotContainAnyElementsOf(cluster.pods().keySet());
  }
}
