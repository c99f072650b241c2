package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reports pods of other owners that hold names the job needs ({@link ForeignPod}): the {@code
 * PodNameConflict} condition is True, naming each pod and its owner, with a Warning Event of the
 * same words when it becomes so or its words change; once they are gone it turns False. The job
 * itself does not fail: it waits, and its pods are created once the names are free.
 */
public final class PodNameConflicts {

  static final String REASON = LifecycleReasons.POD_NAME_CONFLICT;

  public void report(JobObservation observation, PlanDraft draft) {
    List<ForeignPod> blocking =
        observation.foreignPods().values().stream()
            .filter(pod -> isJobPodName(observation, pod.name()))
            .toList();
    Optional<Condition> current = observation.status().condition(Condition.POD_NAME_CONFLICT);
    if (blocking.isEmpty()) {
      if (current.filter(condition -> condition.status() == ConditionStatus.TRUE).isPresent()) {
        draft.recordNameConflict(
            new Condition(
                Condition.POD_NAME_CONFLICT,
                ConditionStatus.FALSE,
                LifecycleReasons.NAME_FREE,
                "no pod of another owner holds a name this job needs",
                Optional.empty()));
      }
      return;
    }
    String message =
        blocking.stream()
                .map(
                    pod ->
                        "pod \"%s\" exists and is not this job's (%s)"
                            .formatted(pod.name(), pod.owner()))
                .collect(Collectors.joining("; "))
            + "; it is not adopted: delete or rename it, and the job goes on once the name is free";
    boolean changed =
        current
            .filter(
                condition ->
                    condition.status() == ConditionStatus.TRUE
                        && condition.message().equals(message))
            .isEmpty();
    draft.recordNameConflict(
        new Condition(
            Condition.POD_NAME_CONFLICT, ConditionStatus.TRUE, REASON, message, Optional.empty()));
    if (changed) {
      draft.event(EventType.WARNING, REASON, message);
    }
  }

  private static boolean isJobPodName(JobObservation observation, String name) {
    return observation.leaderSlot().podName().equals(name)
        || observation.workerSlots().stream().anyMatch(slot -> slot.podName().equals(name));
  }
}
