package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Computes the controller-owned status a plan leaves behind: the stage and counters it decided,
 * summaries of the pods as observed, conditions and times.
 */
public final class StatusProjector {

  private final Duration refusingNodeAvoidance;

  /**
   * @param refusingNodeAvoidance how long a node whose kubelet refused a pod of the job is avoided
   */
  public StatusProjector(Duration refusingNodeAvoidance) {
    this.refusingNodeAvoidance = refusingNodeAvoidance;
  }

  public ControllerStatus project(JobObservation observation, PlanDraft draft) {
    ControllerStatus current = observation.status();
    List<WorkerSetSummary> workerSets = workerSetSummaries(observation, draft);
    Optional<Instant> now = Optional.of(observation.now());
    return new ControllerStatus(
        draft.stage(),
        conditions(current.conditions(), draft, observation),
        leaderSummary(observation, draft),
        workerSets,
        workerSets.stream().mapToInt(WorkerSetSummary::ready).sum(),
        current.startTime().or(() -> draft.stage() == Stage.RUNNING ? now : Optional.empty()),
        current.completionTime().or(() -> draft.stage().isTerminal() ? now : Optional.empty()),
        observation.job().generation(),
        remainingEviction(observation, draft),
        allocatedNodes(observation, draft),
        avoidedNodes(observation, draft));
  }

  private static int allocatedNodes(JobObservation observation, PlanDraft draft) {
    return (int)
        observation.scheduler().allocations().entrySet().stream()
            .filter(allocation -> !draft.isReleased(allocation.getKey()))
            .map(Map.Entry::getValue)
            .distinct()
            .count();
  }

  /**
   * The nodes still avoided, and those that refused a pod in this plan (the latest kept within the
   * bound).
   */
  private List<AvoidedNodeEntry> avoidedNodes(JobObservation observation, PlanDraft draft) {
    Map<String, AvoidedNodeEntry> byNode = new LinkedHashMap<>();
    for (AvoidedNodeEntry avoided : observation.status().avoidNodes()) {
      if (avoided.until().isAfter(observation.now())) {
        byNode.put(avoided.node(), avoided);
      }
    }
    Instant until = observation.now().plus(refusingNodeAvoidance);
    draft
        .refusingNodes()
        .forEach(
            (node, reason) -> {
              byNode.remove(node);
              byNode.put(node, new AvoidedNodeEntry(node, reason, until));
            });
    List<AvoidedNodeEntry> avoided = new ArrayList<>(byNode.values());
    return List.copyOf(
        avoided.subList(
            Math.max(0, avoided.size() - ControllerStatus.MAX_AVOIDED_NODES), avoided.size()));
  }

  /** The eviction note stays until the job is rescheduled or none of the pods it names is left. */
  private static Optional<EvictionNotice> remainingEviction(
      JobObservation observation, PlanDraft draft) {
    return observation
        .status()
        .eviction()
        .filter(notice -> draft.stage() != Stage.RESCHEDULING && !draft.stage().isTerminal())
        .filter(notice -> notice.pods().stream().anyMatch(pod -> observation.pod(pod).isPresent()));
  }

  private LeaderSummary leaderSummary(JobObservation observation, PlanDraft draft) {
    Optional<PodView> pod = observation.leaderPod();
    String podName = observation.leaderSlot().podName();
    return new LeaderSummary(
        Optional.of(podName),
        pod.flatMap(PodView::nodeName).or(() -> observation.allocation(podName)),
        pod.flatMap(PodView::podIp),
        // A leader this plan creates before writing the status exists once the status is written.
        pod.map(PodView::phase)
            .or(
                () ->
                    draft.createsLeaderFirst() ? Optional.of(PodPhase.PENDING) : Optional.empty()),
        draft.leaderRestarts());
  }

  private List<WorkerSetSummary> workerSetSummaries(JobObservation observation, PlanDraft draft) {
    List<WorkerSetSummary> summaries = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    // A job with more sets than the bounds allow is invalid; summing up only the first keeps its
    // status small enough to be written.
    List<WorkerSetSpecView> summarised =
        observation.spec().workerSets().stream().limit(TYJobBounds.MAX_WORKER_SETS).toList();
    for (WorkerSetSpecView workerSet : summarised) {
      if (!seen.add(workerSet.name())) {
        continue;
      }
      int created = 0;
      int ready = 0;
      for (PodSlot.Worker slot : observation.workerSlots()) {
        if (!slot.workerSet().equals(workerSet.name())) {
          continue;
        }
        Optional<PodView> pod = observation.pod(slot.podName());
        if (pod.isPresent() && !pod.get().deleting()) {
          created++;
          ready += pod.get().isServing() ? 1 : 0;
        }
      }
      summaries.add(
          new WorkerSetSummary(
              workerSet.name(),
              saturatedInt(workerSet.counts()),
              created,
              ready,
              draft.workerSetRestarts(workerSet.name())));
    }
    return List.copyOf(summaries);
  }

  /**
   * {@code counts} as the int that {@code status.workerSets[].desired} holds. Only an invalid job's
   * counts can lie outside an int; saturating (rather than wrapping) keeps what is written equal to
   * what is read back, so re-planning the job writes nothing new.
   */
  private static int saturatedInt(long value) {
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
  }

  private List<Condition> conditions(
      List<Condition> current, PlanDraft draft, JobObservation observation) {
    List<Condition> conditions = current;
    if (draft.validation().isPresent()) {
      conditions = ConditionLedger.record(conditions, draft.validation().get(), observation.now());
    }
    if (draft.nameConflict().isPresent()) {
      conditions =
          ConditionLedger.record(conditions, draft.nameConflict().get(), observation.now());
    }
    if (draft.transition().isPresent()) {
      Transition transition = draft.transition().get();
      ConditionStatus running =
          transition.to() == Stage.RUNNING ? ConditionStatus.TRUE : ConditionStatus.FALSE;
      conditions =
          ConditionLedger.record(
              conditions,
              new Condition(
                  Condition.RUNNING,
                  running,
                  transition.reason(),
                  transition.message(),
                  Optional.empty()),
              observation.now());
      if (transition.to().isTerminal()) {
        conditions =
            ConditionLedger.record(
                conditions,
                new Condition(
                    Condition.FINISHED,
                    ConditionStatus.TRUE,
                    transition.reason(),
                    transition.message(),
                    Optional.empty()),
                observation.now());
      }
    }
    return conditions;
  }
}
