package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions of one plan while it is being made: the stage, restart counters and pod actions.
 * Local to a single {@link io.tyrl.arranger.controller.lifecycle.LifecyclePlanner#plan} call;
 * deduplicates so that two rules asking for the same delete produce one action.
 */
public final class PlanDraft {

  private final Stage initialStage;
  private Stage stage;
  private Optional<Transition> transition = Optional.empty();
  private Optional<Condition> validation = Optional.empty();
  private Optional<Condition> nameConflict = Optional.empty();
  private Optional<PlannedAction.ReportRefusal> refusal = Optional.empty();
  private int leaderRestarts;
  private final Map<String, Integer> workerSetRestarts = new LinkedHashMap<>();
  private final Set<String> releases = new LinkedHashSet<>();
  private final Map<String, PlannedAction.DeletePod> deletes = new LinkedHashMap<>();
  private final Map<String, PlannedAction.CreatePod> creates = new LinkedHashMap<>();
  private final List<PlannedAction.EmitEvent> events = new ArrayList<>();

  /** Node → the kubelet's reason, for nodes that refused a pod of the job in this plan. */
  private final Map<String, String> refusingNodes = new LinkedHashMap<>();

  private boolean lookAgainLater;

  public PlanDraft(ControllerStatus current) {
    this.initialStage = current.stage();
    this.stage = current.stage();
    this.leaderRestarts = current.leader().restarts();
    current
        .workerSets()
        .forEach(summary -> workerSetRestarts.put(summary.name(), summary.restarts()));
  }

  Stage stage() {
    return stage;
  }

  Optional<Transition> transition() {
    return transition;
  }

  public void moveTo(Stage target, String reason, String message, EventType eventType) {
    transition = Optional.of(new Transition(initialStage, target, reason, message, eventType));
    stage = target;
    event(eventType, reason, message);
  }

  Optional<Condition> validation() {
    return validation;
  }

  public void recordValidation(Condition condition) {
    validation = Optional.of(condition);
  }

  Optional<Condition> nameConflict() {
    return nameConflict;
  }

  public void recordNameConflict(Condition condition) {
    nameConflict = Optional.of(condition);
  }

  /**
   * The job is refused: its reason and message are shown as the scheduling reason, with the same
   * words as its Event.
   */
  public void refuse(String reason, String message) {
    refusal = Optional.of(new PlannedAction.ReportRefusal(reason, message));
  }

  int leaderRestarts() {
    return leaderRestarts;
  }

  public int countLeaderRestart() {
    return ++leaderRestarts;
  }

  public int workerSetRestarts(String workerSetName) {
    return workerSetRestarts.getOrDefault(workerSetName, 0);
  }

  public int countWorkerSetRestart(String workerSetName) {
    return workerSetRestarts.merge(workerSetName, 1, Integer::sum);
  }

  public void create(PodSlot slot, String nodeName, PodEnvironment environment) {
    creates.putIfAbsent(slot.podName(), new PlannedAction.CreatePod(slot, nodeName, environment));
  }

  public void delete(String podName, DeletionReason why) {
    deletes.putIfAbsent(podName, new PlannedAction.DeletePod(podName, why));
  }

  /** Deletes at once, replacing a graceful delete of the same pod planned earlier in this plan. */
  public void forceDelete(String podName, DeletionReason why) {
    deletes.put(podName, new PlannedAction.DeletePod(podName, why, true));
  }

  /** The leader is created before the status is written ({@link Plan#createsLeaderFirst()}). */
  boolean createsLeaderFirst() {
    return Plan.leaderGoesFirst(releases.isEmpty(), deletes.isEmpty(), creates.values());
  }

  /**
   * The plan waits for time to pass (a node's grace): the job is to be looked at again without an
   * event.
   */
  public void lookAgainLater() {
    lookAgainLater = true;
  }

  public void release(String podName) {
    releases.add(podName);
  }

  public boolean isReleased(String podName) {
    return releases.contains(podName);
  }

  /**
   * The kubelet on {@code node} refused a pod of the job: the scheduler is to avoid it for a while.
   */
  public void avoid(String node, String kubeletReason) {
    refusingNodes.put(node, kubeletReason);
  }

  Map<String, String> refusingNodes() {
    return refusingNodes;
  }

  public void event(EventType type, String reason, String message) {
    events.add(new PlannedAction.EmitEvent(type, reason, message));
  }

  /**
   * The plan, with its actions in the order {@link PlannedAction} asks the adapter to apply them.
   */
  public Plan toPlan(ControllerStatus current, ControllerStatus next) {
    List<PlannedAction> actions = new ArrayList<>();
    releases.forEach(podName -> actions.add(new PlannedAction.ReleaseAllocation(podName)));
    refusal.ifPresent(actions::add);
    if (!next.equals(current)) {
      actions.add(new PlannedAction.PatchStatus(next, next.differsOnlyInReportsFrom(current)));
    }
    actions.addAll(deletes.values());
    actions.addAll(creates.values());
    actions.addAll(events);
    return new Plan(stage, actions, lookAgainLater);
  }
}
