package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of planning one TYJob: the stage it is in after the plan is applied, and the actions
 * that get it there, in the order they must be applied (see {@link PlannedAction}).
 *
 * @param lookAgainLater the job waits for time to pass (the grace of a node that is not Ready), so
 *     it is to be looked at again even if nothing about it changes
 */
public record Plan(Stage stage, List<PlannedAction> actions, boolean lookAgainLater) {

  public Plan {
    Objects.requireNonNull(stage, "stage");
    actions = List.copyOf(actions);
  }

  public Plan(Stage stage, List<PlannedAction> actions) {
    this(stage, actions, false);
  }

  public boolean isEmpty() {
    return actions.isEmpty();
  }

  public <T extends PlannedAction> List<T> actionsOf(Class<T> kind) {
    return actions.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  public List<PlannedAction.CreatePod> creates() {
    return actionsOf(PlannedAction.CreatePod.class);
  }

  public List<PlannedAction.DeletePod> deletes() {
    return actionsOf(PlannedAction.DeletePod.class);
  }

  public List<PlannedAction.ReleaseAllocation> releases() {
    return actionsOf(PlannedAction.ReleaseAllocation.class);
  }

  public List<PlannedAction.EmitEvent> events() {
    return actionsOf(PlannedAction.EmitEvent.class);
  }

  /** The reason and message a refused job shows, written with the status. */
  public Optional<PlannedAction.ReportRefusal> refusal() {
    return actionsOf(PlannedAction.ReportRefusal.class).stream().findFirst();
  }

  /**
   * True when the leader is created before the status is written ({@link PlannedAction}): the plan
   * creates it, and neither deletes a pod nor gives a placement back.
   */
  public boolean createsLeaderFirst() {
    return leaderGoesFirst(releases().isEmpty(), deletes().isEmpty(), creates());
  }

  static boolean leaderGoesFirst(
      boolean noReleases,
      boolean noDeletes,
      java.util.Collection<PlannedAction.CreatePod> creates) {
    return noReleases
        && noDeletes
        && creates.stream().anyMatch(create -> create.role() == PodRole.LEADER);
  }

  /**
   * True when the plan's status write only reports on the pods and the spec: no lifecycle fact
   * changes, no placement is given back, no refusal is shown. The adapter may hold such a write
   * back.
   */
  public boolean statusWriteOnlyReports() {
    return releases().isEmpty()
        && refusal().isEmpty()
        && actionsOf(PlannedAction.PatchStatus.class).stream()
            .anyMatch(PlannedAction.PatchStatus::onlyReports);
  }

  /** This plan without its status write (held back by the adapter); its other actions unchanged. */
  public Plan withoutStatusWrite() {
    return new Plan(
        stage,
        actions.stream().filter(action -> !(action instanceof PlannedAction.PatchStatus)).toList(),
        lookAgainLater);
  }

  /** The new controller-owned status, if it differs from the one stored. */
  public Optional<ControllerStatus> statusPatch() {
    return actionsOf(PlannedAction.PatchStatus.class).stream()
        .map(PlannedAction.PatchStatus::status)
        .findFirst();
  }
}
