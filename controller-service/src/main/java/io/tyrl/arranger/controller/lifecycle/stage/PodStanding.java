package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;

/** How a pod of the job stands, as far as the lifecycle is concerned. */
enum PodStanding {
  /** Pending or Running and not being deleted: leave it be. */
  ACTIVE,
  /**
   * Phase Unknown: its node stopped reporting. Not lost yet; the node lifecycle controller evicts
   * it if the node stays away.
   */
  UNREACHABLE,
  /** Ran to completion. */
  SUCCEEDED,
  /** Refused by the kubelet at admission; see {@link KubeletRejection}. */
  REJECTED,
  /** Failed, including evicted. */
  FAILED,
  /** Being deleted (by a user, a preemption, a drain) while it had not ended. */
  DELETING;

  static PodStanding of(PodView pod) {
    if (KubeletRejection.isRejected(pod)) {
      return REJECTED;
    }
    if (pod.phase() == PodPhase.SUCCEEDED) {
      return SUCCEEDED;
    }
    if (pod.phase() == PodPhase.FAILED) {
      return FAILED;
    }
    if (pod.deleting()) {
      return DELETING;
    }
    return pod.phase() == PodPhase.UNKNOWN ? UNREACHABLE : ACTIVE;
  }
}
