package io.tyrl.arranger.crd.reasons;

/**
 * How an evicted job is told why its pods go: the text of a {@code status.victims} entry, which the
 * victim job's {@code status.eviction} and Events repeat. The scheduler writes it; the controller
 * reads the cause back from it for an entry written before the cause had a field of its own.
 */
public final class EvictionWording {

  private static final String PREEMPTED_BY = "preempted by ";
  private static final String RECLAIMED_BY = "reclaimed by ";
  private static final String FITS_ELSEWHERE = "; this job fits elsewhere in free room now";

  private EvictionWording() {}

  /** e.g. {@code preempted by team-a/high (priority 8 > 5)} */
  public static String preemptedBy(String preemptorKey, int preemptorPriority, int victimPriority) {
    return PREEMPTED_BY
        + preemptorKey
        + " (priority "
        + preemptorPriority
        + " > "
        + victimPriority
        + ")";
  }

  /**
   * e.g. {@code reclaimed by queue b (below its deserved share) for b/job; queue a is above its
   * deserved share}
   */
  public static String reclaimedBy(String preemptorQueue, String preemptorKey, String victimQueue) {
    return RECLAIMED_BY
        + "queue "
        + preemptorQueue
        + " (below its deserved share) for "
        + preemptorKey
        + "; queue "
        + victimQueue
        + " is above its deserved share";
  }

  /**
   * e.g. {@code reclaimed by queue b (below its guarantee) for b/job; queue a holds more than its
   * guarantee}: taken for a guarantee, though queue a may be within its deserved share.
   */
  public static String reclaimedForGuarantee(
      String preemptorQueue, String preemptorKey, String victimQueue) {
    return RECLAIMED_BY
        + "queue "
        + preemptorQueue
        + " (below its guarantee) for "
        + preemptorKey
        + "; queue "
        + victimQueue
        + " holds more than its guarantee";
  }

  /**
   * e.g. {@code reclaimed by queue b (below its deserved share) for b/job, which fits on no node
   * while the cluster's free room is in pieces; this job fits elsewhere in free room now}: a job
   * moved so that another's pod finds one node with room, whatever its own queue's share.
   */
  public static String movedFor(String preemptorQueue, String preemptorKey) {
    return RECLAIMED_BY
        + "queue "
        + preemptorQueue
        + " (below its deserved share) for "
        + preemptorKey
        + ", which fits on no node while the cluster's free room is in pieces"
        + FITS_ELSEWHERE;
  }

  /** True when the text is a {@link #movedFor} move's. */
  public static boolean isMove(String text) {
    return text != null && text.startsWith(RECLAIMED_BY) && text.endsWith(FITS_ELSEWHERE);
  }

  /**
   * {@link SchedulingReasons#RECLAIMED} or {@link SchedulingReasons#PREEMPTED}, as an eviction's
   * text says: reclaim's text starts with "reclaimed", anything else counts as preemption.
   */
  public static String causeOf(String text) {
    return text != null && text.startsWith("reclaimed")
        ? SchedulingReasons.RECLAIMED
        : SchedulingReasons.PREEMPTED;
  }
}
