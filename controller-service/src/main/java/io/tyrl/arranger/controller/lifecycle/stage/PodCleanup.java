package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.CleanPodPolicy;
import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import java.util.EnumSet;
import java.util.Set;

/** Which pods an ended job deletes, per {@code spec.cleanPodPolicy}. */
final class PodCleanup {

  /** Phases of pods that may still hold a node's resources; Unknown may well be running still. */
  private static final Set<PodPhase> STILL_RUNNING =
      EnumSet.of(PodPhase.PENDING, PodPhase.RUNNING, PodPhase.UNKNOWN);

  void clean(JobObservation observation, PlanDraft draft) {
    CleanPodPolicy policy = observation.spec().cleanPodPolicyOrDefault();
    for (PodView pod : observation.pods()) {
      if (!pod.deleting() && removes(policy, pod)) {
        draft.delete(pod.name(), DeletionReason.JOB_FINISHED);
      }
    }
  }

  static boolean removes(CleanPodPolicy policy, PodView pod) {
    return switch (policy) {
      case ALL -> true;
      case RUNNING -> STILL_RUNNING.contains(pod.phase());
      case NONE -> false;
    };
  }
}
