package io.tyrl.arranger.controller.lifecycle.status;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The controller-owned fields of {@code TYJob.status}: read back as input, written as the payload
 * of {@link io.tyrl.arranger.controller.lifecycle.plan.PlannedAction.PatchStatus}.
 *
 * <p>Restart counters live here rather than in the controller's memory so that a plan depends only
 * on what is stored: a restarted controller plans exactly what the previous one would have.
 *
 * @param eviction pods of the job being evicted for another job ({@code status.eviction}); kept
 *     until the job has been rescheduled or none of those pods is left
 * @param allocatedNodes distinct nodes of the scheduler's allocations, for {@code kubectl get tyj
 *     -o wide}
 * @param avoidNodes nodes whose kubelet refused a pod of the job, avoided by the scheduler for a
 *     while; at most {@link #MAX_AVOIDED_NODES}, the latest kept
 */
public record ControllerStatus(
    Stage stage,
    List<Condition> conditions,
    LeaderSummary leader,
    List<WorkerSetSummary> workerSets,
    int readyWorkers,
    Optional<Instant> startTime,
    Optional<Instant> completionTime,
    long observedGeneration,
    Optional<EvictionNotice> eviction,
    int allocatedNodes,
    List<AvoidedNodeEntry> avoidNodes) {

  public ControllerStatus {
    stage = Objects.requireNonNullElse(stage, Stage.PENDING);
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    leader = Objects.requireNonNullElse(leader, LeaderSummary.none());
    workerSets = workerSets == null ? List.of() : List.copyOf(workerSets);
    startTime = startTime == null ? Optional.empty() : startTime;
    completionTime = completionTime == null ? Optional.empty() : completionTime;
    eviction = eviction == null ? Optional.empty() : eviction;
    avoidNodes = avoidNodes == null ? List.of() : List.copyOf(avoidNodes);
  }

  public static final int MAX_AVOIDED_NODES = 16;

  /** A status with no eviction under way, no allocation and no node avoided. */
  public ControllerStatus(
      Stage stage,
      List<Condition> conditions,
      LeaderSummary leader,
      List<WorkerSetSummary> workerSets,
      int readyWorkers,
      Optional<Instant> startTime,
      Optional<Instant> completionTime,
      long observedGeneration) {
    this(
        stage,
        conditions,
        leader,
        workerSets,
        readyWorkers,
        startTime,
        completionTime,
        observedGeneration,
        Optional.empty(),
        0,
        List.of());
  }

  /** The status of a job the controller has never written: Pending, nothing counted. */
  public static ControllerStatus initial() {
    return new ControllerStatus(
        Stage.PENDING,
        List.of(),
        LeaderSummary.none(),
        List.of(),
        0,
        Optional.empty(),
        Optional.empty(),
        0);
  }

  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(condition -> condition.type().equals(type)).findFirst();
  }

  /** {@code ready/desired} over every WorkerSet: the WORKERS column. */
  public String workersReadyOfDesired() {
    long desired = workerSets.stream().mapToLong(WorkerSetSummary::desired).sum();
    return readyWorkers + "/" + desired;
  }

  /**
   * What of this status is a lifecycle fact — the stage, restart counters, the conditions (but
   * {@code Validated}), times, the eviction note, avoided nodes, and whether the leader has been
   * observed at all — as opposed to what only reports on the job's pods and spec: the leader's
   * name, node, address and phase once observed, desired, created and ready counts, allocated
   * nodes, the observed generation and the validation. A fact is written the moment it changes; a
   * report may wait (the adapter batches it).
   */
  public record LifecycleFacts(
      Stage stage,
      List<Condition> conditions,
      boolean leaderObserved,
      int leaderRestarts,
      Map<String, Integer> workerSetRestarts,
      Optional<Instant> startTime,
      Optional<Instant> completionTime,
      Optional<EvictionNotice> eviction,
      List<AvoidedNodeEntry> avoidNodes) {}

  public LifecycleFacts lifecycleFacts() {
    Map<String, Integer> restarts = new LinkedHashMap<>();
    // A set with no restart counted is the same fact whether or not the status lists it yet.
    workerSets.stream()
        .filter(summary -> summary.restarts() != 0)
        .forEach(summary -> restarts.put(summary.name(), summary.restarts()));
    return new LifecycleFacts(
        stage,
        conditions.stream()
            .filter(condition -> !condition.type().equals(Condition.VALIDATED))
            .toList(),
        leader.wasObserved(),
        leader.restarts(),
        restarts,
        startTime,
        completionTime,
        eviction,
        avoidNodes);
  }

  /**
   * True when this status differs from {@code stored}, and only in what reports on the job's pods
   * and spec.
   */
  public boolean differsOnlyInReportsFrom(ControllerStatus stored) {
    return !equals(stored) && lifecycleFacts().equals(stored.lifecycleFacts());
  }

  /** Restarts counted so far for the named WorkerSet; 0 for a set not yet in the status. */
  public int workerSetRestarts(String workerSetName) {
    return workerSets.stream()
        .filter(summary -> summary.name().equals(workerSetName))
        .mapToInt(WorkerSetSummary::restarts)
        .findFirst()
        .orElse(0);
  }
}
