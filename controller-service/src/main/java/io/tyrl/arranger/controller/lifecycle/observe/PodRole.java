package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.crd.contract.PodLabels;

/** Whether a pod is the job's leader (Learner) or one of its workers (Actors). */
public enum PodRole {
  LEADER(PodLabels.LEADER),
  WORKER(PodLabels.WORKER);

  private final String wireName;

  PodRole(String wireName) {
    this.wireName = wireName;
  }

  /** The value used in the {@code TYJOB_ROLE} variable and the role label. */
  public String wireName() {
    return wireName;
  }
}
