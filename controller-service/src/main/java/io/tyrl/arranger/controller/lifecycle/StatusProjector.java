package io.tyrl.arranger.controller.lifecycle;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Computes the controller-owned status a plan leaves behind: the stage and counters it decided,
 * summaries of the pods as observed, conditions and times.
 */
final class StatusProjector {

  ControllerStatus project(JobObservation observation, PlanDraft draft) {
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
        observation.job().generation());
  }

  private LeaderSummary leaderSummary(JobObservation observation, PlanDraft draft) {
    Optional<PodView> pod = observation.leaderPod();
    String podName = observation.leaderSlot().podName();
    return new LeaderSummary(
        Optional.of(podName),
        pod.flatMap(PodView::nodeName).or(() -> observation.allocation(podName)),
        pod.flatMap(PodView::podIp),
        pod.map(PodView::phase),
        draft.leaderRestarts());
  }

  private List<WorkerSetSummary> workerSetSummaries(JobObservation observation, PlanDraft draft) {
    List<WorkerSetSummary> summaries = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (WorkerSetSpecView workerSet : observation.spec().workerSets()) {
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
      summaries.add(new WorkerSetSummary(
          workerSet.name(), workerSet.counts(), created, ready, draft.workerSetRestarts(workerSet.name())));
    }
    return List.copyOf(summaries);
  }

  private List<Condition> conditions(List<Condition> current, PlanDraft draft, JobObservation observation) {
    List<Condition> conditions = current;
    if (draft.validation().isPresent()) {
      conditions = ConditionLedger.record(conditions, draft.validation().get(), observation.now());
    }
    if (draft.transition().isPresent()) {
      Transition transition = draft.transition().get();
      ConditionStatus running = transition.to() == Stage.RUNNING ? ConditionStatus.TRUE : ConditionStatus.FALSE;
      conditions = ConditionLedger.record(conditions,
          new Condition(Condition.RUNNING, running, transition.reason(), transition.message(), Optional.empty()),
          observation.now());
      if (transition.to().isTerminal()) {
        conditions = ConditionLedger.record(conditions,
            new Condition(Condition.FINISHED, ConditionStatus.TRUE, transition.reason(), transition.message(), Optional.empty()),
            observation.now());
      }
    }
    return conditions;
  }
}
