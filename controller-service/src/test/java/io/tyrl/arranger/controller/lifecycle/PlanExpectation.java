package io.tyrl.arranger.controller.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One row's expected outcome in the table-driven tests: the stage, and exactly which pods are
 * created, deleted and given back, which event reasons appear, and optionally restart counts.
 */
public final class PlanExpectation {

  private final Stage stage;
  private Set<String> creates = Set.of();
  private Set<String> deletes = Set.of();
  private Set<String> releases = Set.of();
  private List<String> events = List.of();
  private Optional<Integer> leaderRestarts = Optional.empty();
  private final Map<String, Integer> workerSetRestarts = new LinkedHashMap<>();
  private Optional<Boolean> evictionKept = Optional.empty();

  private PlanExpectation(Stage stage) {
    this.stage = stage;
  }

  public static PlanExpectation expect(Stage stage) {
    return new PlanExpectation(stage);
  }

  public PlanExpectation creates(String... podNames) {
    this.creates = Set.of(podNames);
    return this;
  }

  public PlanExpectation deletes(String... podNames) {
    this.deletes = Set.of(podNames);
    return this;
  }

  public PlanExpectation releases(String... podNames) {
    this.releases = Set.of(podNames);
    return this;
  }

  public PlanExpectation events(String... reasons) {
    this.events = List.of(reasons);
    return this;
  }

  public PlanExpectation leaderRestarts(int value) {
    this.leaderRestarts = Optional.of(value);
    return this;
  }

  public PlanExpectation workerSetRestarts(String workerSet, int value) {
    workerSetRestarts.put(workerSet, value);
    return this;
  }

  /** Whether {@code status.eviction} is still there after the plan. */
  public PlanExpectation evictionKept(boolean value) {
    this.evictionKept = Optional.of(value);
    return this;
  }

  void verify(Plan plan, JobView job) {
    assertThat(plan.stage()).as("stage").isEqualTo(stage);
    assertThat(plan.creates())
        .extracting(PlannedAction.CreatePod::podName)
        .as("creates")
        .containsExactlyInAnyOrderElementsOf(creates);
    assertThat(plan.deletes())
        .extracting(PlannedAction.DeletePod::podName)
        .as("deletes")
        .containsExactlyInAnyOrderElementsOf(deletes);
    assertThat(plan.releases())
        .extracting(PlannedAction.ReleaseAllocation::podName)
        .as("releases")
        .containsExactlyInAnyOrderElementsOf(releases);
    assertThat(plan.events())
        .extracting(PlannedAction.EmitEvent::reason)
        .as("event reasons")
        .containsExactlyElementsOf(events);
    ControllerStatus status = plan.statusPatch().orElse(job.status());
    assertThat(status.stage()).as("status.stage").isEqualTo(stage);
    leaderRestarts.ifPresent(
        expected ->
            assertThat(status.leader().restarts()).as("leader restarts").isEqualTo(expected));
    workerSetRestarts.forEach(
        (set, expected) ->
            assertThat(status.workerSetRestarts(set))
                .as("restarts of workerSet " + set)
                .isEqualTo(expected));
    evictionKept.ifPresent(
        expected ->
            assertThat(status.eviction().isPresent())
                .as("status.eviction kept")
                .isEqualTo(expected));
  }
}
