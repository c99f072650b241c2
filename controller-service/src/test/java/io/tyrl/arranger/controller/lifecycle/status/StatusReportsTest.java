package io.tyrl.arranger.controller.lifecycle.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.FakeCluster;
import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which status writes only report on the pods and the spec (and may be held back by the adapter),
 * and which carry a lifecycle fact (and never wait), over a job's happy path and its losses.
 */
class StatusReportsTest {

  private static final Map<String, String> ALL_ON_NODE_A =
      Map.of("train-learner", "node-a", "train-actor-0", "node-a", "train-actor-1", "node-a");

  private static boolean onlyReports(Plan plan) {
    return plan.statusWriteOnlyReports();
  }

  @Test
  void overTheHappyPathOnlyStageChangesAreFactsAndWhatPodsShowIsReported() {
    FakeCluster cluster = new FakeCluster(JobFixture.job().build());

    Plan validated = cluster.step();
    assertThat(validated.statusPatch())
        .as("a valid pending job: the Validated condition")
        .isPresent();
    assertThat(onlyReports(validated)).as("validation alone may wait").isTrue();

    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, ALL_ON_NODE_A);
    Plan starting = cluster.step();
    assertThat(starting.stage()).isEqualTo(Stage.STARTING);
    assertThat(onlyReports(starting)).as("a stage change").isFalse();

    cluster.run("train-learner", "10.0.0.1");
    Plan workers = cluster.step();
    assertThat(workers.creates()).hasSize(2);
    assertThat(onlyReports(workers)).as("the leader's phase and address: a report").isTrue();

    Plan created = cluster.step();
    assertThat(onlyReports(created)).as("workers created: a report").isTrue();

    cluster.run("train-actor-0", "10.0.0.2");
    cluster.run("train-actor-1", "10.0.0.3");
    Plan running = cluster.step();
    assertThat(running.stage()).isEqualTo(Stage.RUNNING);
    assertThat(onlyReports(running)).isFalse();
  }

  @Test
  void aLostWorkerIsAFactNotAReport() {
    FakeCluster cluster = FakeCluster.running(ALL_ON_NODE_A);

    cluster.fail("train-actor-0", "Error");
    Plan loss = cluster.plan();

    assertThat(loss.statusPatch()).isPresent();
    assertThat(onlyReports(loss)).as("a restart counted, a placement given back").isFalse();
  }

  @Test
  void allocatedNodesCountDistinctNodesAndLeaveOutAPlacementGivenBackInThePlan() {
    FakeCluster cluster =
        FakeCluster.running(
            Map.of(
                "train-learner", "node-a", "train-actor-0", "node-b", "train-actor-1", "node-c"));
    assertThat(cluster.job().status().allocatedNodes()).isEqualTo(3);

    cluster.fail("train-actor-1", "Error");
    Plan loss = cluster.plan();

    assertThat(loss.releases())
        .extracting(PlannedAction.ReleaseAllocation::podName)
        .containsExactly("train-actor-1");
    assertThat(loss.creates())
        .as("a worker given back is not created again in the same plan")
        .isEmpty();
    assertThat(loss.statusPatch().orElseThrow().allocatedNodes())
        .as("node-c held only the worker given back")
        .isEqualTo(2);
    assertThat(loss.isEmpty()).isFalse();
  }

  @Test
  void theLeaderFirstSeenIsAFactItsLaterPhasesAreReports() {
    ControllerStatus unseen = status(LeaderSummary.none(), List.of(), 0);
    ControllerStatus seen = status(leader(PodPhase.PENDING, Optional.empty()), List.of(), 0);
    ControllerStatus runningWithAddress =
        status(leader(PodPhase.RUNNING, Optional.of("10.0.0.1")), List.of(), 0);

    assertThat(seen.differsOnlyInReportsFrom(unseen)).isFalse();
    assertThat(runningWithAddress.differsOnlyInReportsFrom(seen)).isTrue();
    assertThat(seen.differsOnlyInReportsFrom(seen))
        .as("no difference at all is no report")
        .isFalse();
  }

  @Test
  void countsAreReportsAndRestartsAreFacts() {
    ControllerStatus before =
        status(
            leader(PodPhase.RUNNING, Optional.empty()),
            List.of(new WorkerSetSummary("actor", 2, 0, 0, 0)),
            0);

    assertThat(
            status(before.leader(), List.of(new WorkerSetSummary("actor", 2, 2, 1, 0)), 1)
                .differsOnlyInReportsFrom(before))
        .isTrue();
    assertThat(
            status(before.leader(), List.of(new WorkerSetSummary("actor", 2, 2, 1, 1)), 1)
                .differsOnlyInReportsFrom(before))
        .isFalse();
    assertThat(
            status(leader(PodPhase.RUNNING, Optional.empty(), 1), before.workerSets(), 0)
                .differsOnlyInReportsFrom(before))
        .as("a leader restart")
        .isFalse();
  }

  @Test
  void everyConditionButValidatedIsAFact() {
    Condition validated =
        new Condition(Condition.VALIDATED, ConditionStatus.TRUE, "Valid", "ok", Optional.empty());
    Condition conflict =
        new Condition(
            Condition.POD_NAME_CONFLICT,
            ConditionStatus.TRUE,
            "PodNameConflict",
            "held",
            Optional.empty());
    ControllerStatus plain = status(LeaderSummary.none(), List.of(), 0);

    assertThat(withConditions(plain, List.of(validated)).differsOnlyInReportsFrom(plain)).isTrue();
    assertThat(withConditions(plain, List.of(conflict)).differsOnlyInReportsFrom(plain)).isFalse();
  }

  @Test
  void aStatusWriteThatGivesAPlacementBackNeverOnlyReports() {
    ControllerStatus stored = status(LeaderSummary.none(), List.of(), 0);
    ControllerStatus next =
        status(LeaderSummary.none(), List.of(new WorkerSetSummary("actor", 2, 1, 0, 0)), 0);
    Plan reportOnly = new Plan(Stage.STARTING, List.of(new PlannedAction.PatchStatus(next, true)));
    Plan withRelease =
        new Plan(
            Stage.STARTING,
            List.of(
                new PlannedAction.ReleaseAllocation("train-actor-0"),
                new PlannedAction.PatchStatus(next, true)));

    assertThat(next.differsOnlyInReportsFrom(stored)).isTrue();
    assertThat(reportOnly.statusWriteOnlyReports()).isTrue();
    assertThat(reportOnly.isEmpty()).isFalse();
    assertThat(withRelease.statusWriteOnlyReports()).isFalse();
    assertThat(reportOnly.withoutStatusWrite().isEmpty()).isTrue();
    assertThat(withRelease.withoutStatusWrite().actions())
        .containsExactly(new PlannedAction.ReleaseAllocation("train-actor-0"));
  }

  private static LeaderSummary leader(PodPhase phase, Optional<String> address) {
    return leader(phase, address, 0);
  }

  private static LeaderSummary leader(PodPhase phase, Optional<String> address, int restarts) {
    return new LeaderSummary(
        Optional.of("train-learner"), Optional.of("node-a"), address, Optional.of(phase), restarts);
  }

  private static ControllerStatus status(
      LeaderSummary leader, List<WorkerSetSummary> workerSets, int ready) {
    return new ControllerStatus(
        Stage.STARTING,
        List.of(),
        leader,
        workerSets,
        ready,
        Optional.empty(),
        Optional.empty(),
        3,
        Optional.empty(),
        1,
        List.of());
  }

  private static ControllerStatus withConditions(
      ControllerStatus status, List<Condition> conditions) {
    return new ControllerStatus(
        status.stage(),
        conditions,
        status.leader(),
        status.workerSets(),
        status.readyWorkers(),
        status.startTime(),
        status.completionTime(),
        status.observedGeneration(),
        status.eviction(),
        status.allocatedNodes(),
        status.avoidNodes());
  }
}
