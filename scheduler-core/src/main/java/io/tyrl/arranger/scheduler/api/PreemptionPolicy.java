package io.tyrl.arranger.scheduler.api;

/**
 * Whether a job may evict others to make room for itself (as Kubernetes' PriorityClass {@code
 * preemptionPolicy}). PREEMPT_LOWER_PRIORITY: preempt and reclaim may choose victims for it. NEVER:
 * it waits for room; it may still be a victim itself.
 */
public enum PreemptionPolicy {
  PREEMPT_LOWER_PRIORITY,
  NEVER;

  /** Parses the CRD spelling ("PreemptLowerPriority", "Never"). */
  public static PreemptionPolicy parse(String name) {
    return EnumNames.parse(PreemptionPolicy.class, name, "preemptionPolicy");
  }
}
