package io.tyrl.arranger.scheduler.api;

import java.util.List;

/**
 * Pods of one job that a cycle chose to evict so that another job's minimum fits. The service layer
 * deletes them; until they are gone they come back in snapshots as {@link TaskStatus#RELEASING}.
 *
 * @param pods pod names, as in {@link TaskInfo#podName()}; pods that never ran (placed in the same
 *     cycle) are not listed
 * @param wholeJob true when the victim's gang minimum could not be kept, so all its pods go and the
 *     job is to be rescheduled; false when only elastic workers above its minimum go
 * @param reason why, in words, e.g. {@code preempted by team-a/high (priority 8 > 5)}
 * @param cause {@link ReasonCode#PREEMPTED} or {@link ReasonCode#RECLAIMED}: the reason the victim
 *     job is given
 */
public record Victim(
    String namespace,
    String job,
    List<String> pods,
    boolean wholeJob,
    String reason,
    ReasonCode cause) {

  public Victim {
    if (namespace == null || namespace.isBlank() || job == null || job.isBlank()) {
      throw new IllegalArgumentException("a victim needs a namespace and a job name");
    }
    pods = List.copyOf(pods);
    reason = reason == null ? "" : reason;
    if (cause != ReasonCode.PREEMPTED && cause != ReasonCode.RECLAIMED) {
      throw new IllegalArgumentException("a victim is preempted or reclaimed, not " + cause);
    }
  }

  /**
   * This victim with the pods of a later eviction of the same job for the same preemptor in the
   * same cycle (a job growing pod by pod): one entry per victim job, its pods in eviction order.
   */
  public Victim joinedWith(Victim later) {
    if (!later.jobKey().equals(jobKey())) {
      throw new IllegalArgumentException(
          "cannot join victims of " + jobKey() + " and " + later.jobKey());
    }
    List<String> allPods = new java.util.ArrayList<>(pods);
    allPods.addAll(later.pods);
    return new Victim(namespace, job, allPods, wholeJob || later.wholeJob, reason, cause);
  }

  /** {@code namespace/name} of the victim job, as decisions are keyed. */
  public String jobKey() {
    return namespace + "/" + job;
  }
}
