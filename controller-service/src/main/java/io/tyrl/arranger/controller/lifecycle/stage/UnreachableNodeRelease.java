package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.time.Duration;
import java.time.Instant;

/**
 * Frees a job being rescheduled from pods stuck on a node that is not Ready. Their kubelet cannot
 * confirm a graceful delete, so they would hold their names — and the job — forever. Once the node
 * has not been Ready for longer than the pod's own {@code tolerationSeconds} for the unreachable /
 * not-ready NoExecute taints (or the configured grace when it has none, as Kubernetes' own eviction
 * would wait that long), the job's pod there is force-deleted and a Warning {@code NodeUnreachable}
 * Event says so. Before that, the job is looked at again later.
 */
public final class UnreachableNodeRelease {

  static final String REASON = LifecycleReasons.NODE_UNREACHABLE;

  private final Duration defaultGrace;

  public UnreachableNodeRelease(Duration defaultGrace) {
    this.defaultGrace = defaultGrace;
  }

  void release(JobObservation observation, PlanDraft draft) {
    for (PodView pod : observation.pods()) {
      if (pod.nodeName().isEmpty() || pod.nodeNotReadySince().isEmpty()) {
        continue;
      }
      Duration grace = pod.nodeLossToleration().orElse(defaultGrace);
      Instant notReadySince = pod.nodeNotReadySince().get();
      if (observation.now().isBefore(notReadySince.plus(grace))) {
        draft.lookAgainLater();
        continue;
      }
      draft.forceDelete(pod.name(), DeletionReason.NODE_UNREACHABLE);
      draft.event(
          EventType.WARNING,
          REASON,
          "pod \"%s\" force-deleted: node %s has not been Ready since %s, longer than its grace of %s, so its kubelet cannot confirm the delete; the job can be placed again"
              .formatted(pod.name(), pod.nodeName().get(), notReadySince, describe(grace)));
    }
  }

  private static String describe(Duration duration) {
    return duration.toString().substring(2).toLowerCase();
  }
}
