package io.tyrl.arranger.controller.lifecycle.plan;

/** Why the planner deletes a pod; for logs, events and metrics. */
public enum DeletionReason {
  WORKER_FAILED("the worker failed or was lost; its slot goes back to the scheduler"),
  REJECTED_BY_KUBELET(
      "the kubelet refused the pod after binding; its slot goes back to the scheduler"),
  EVICTED_FOR_ANOTHER_JOB(
      "the pod was evicted for another job (preempted or reclaimed); its slot goes back to the scheduler"),
  STALE_PLACEMENT("the pod runs on a node other than its current allocation"),
  NOT_IN_SPEC("the job's spec no longer has a slot for this pod"),
  LEADER_LOST("the leader was lost, so the whole job is rescheduled"),
  NODE_UNREACHABLE(
      "the pod's node has not been Ready for longer than its grace, so its kubelet cannot confirm a delete"),
  JOB_FINISHED("the job has ended and its cleanPodPolicy removes this pod");

  private final String description;

  DeletionReason(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}
