package io.tyrl.arranger.scheduler.api;

import java.time.Duration;
import java.util.Optional;

/**
 * A Queue: its place in the queue tree ({@code parent}, null = top level), what it is guaranteed
 * ({@code guarantee}, the in-quota share that is never reclaimed), its limit ({@code capability},
 * null = none: the queue and its whole subtree never hold more), how siblings split what is above
 * their guarantees (higher {@code priority} first, then by {@code weight}), whether others may
 * reclaim its surplus, the default job order of its jobs, whether it is open (a closed queue admits
 * no new job; jobs already holding pods go on), and how long a job's core must have run before it
 * may be preempted or reclaimed (null = inherited from the parent; none anywhere = no minimum).
 *
 * @param jobQueuePolicy null = the scheduler configuration's {@code defaultJobQueuePolicy}, which a
 *     session fills in (see {@link #withJobQueuePolicyIfUnset})
 */
public record QueueInfo(
    String name,
    int weight,
    Resource capability,
    boolean reclaimable,
    JobQueuePolicy jobQueuePolicy,
    int priority,
    boolean open,
    String parent,
    Resource guarantee,
    Duration preemptMinRuntime,
    Duration reclaimMinRuntime) {

  public QueueInfo {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("queue name must not be blank");
    }
    if (weight < 1) {
      throw new IllegalArgumentException("queue " + name + ": weight must be >= 1, was " + weight);
    }
    if (priority < 0) {
      throw new IllegalArgumentException(
          "queue " + name + ": priority must be >= 0, was " + priority);
    }
    parent = parent == null || parent.isBlank() ? null : parent;
    guarantee = guarantee == null ? Resource.EMPTY : guarantee;
    requireNotNegative(name, "preemptMinRuntime", preemptMinRuntime);
    requireNotNegative(name, "reclaimMinRuntime", reclaimMinRuntime);
  }

  /** A top-level queue without guarantee or minimum runtimes. */
  public QueueInfo(
      String name,
      int weight,
      Resource capability,
      boolean reclaimable,
      JobQueuePolicy jobQueuePolicy,
      int priority,
      boolean open) {
    this(
        name,
        weight,
        capability,
        reclaimable,
        jobQueuePolicy,
        priority,
        open,
        null,
        Resource.EMPTY,
        null,
        null);
  }

  /** An open top-level queue of priority 0 (the shape before queue state and priority existed). */
  public QueueInfo(
      String name,
      int weight,
      Resource capability,
      boolean reclaimable,
      JobQueuePolicy jobQueuePolicy) {
    this(name, weight, capability, reclaimable, jobQueuePolicy, 0, true);
  }

  private static void requireNotNegative(String name, String field, Duration value) {
    if (value != null && value.isNegative()) {
      throw new IllegalArgumentException(
          "queue " + name + ": " + field + " must not be negative, was " + value);
    }
  }

  /**
   * A reclaimable, open, top-level queue of priority 0 without capability or guarantee whose job
   * order is the configuration's default.
   */
  public static QueueInfo of(String name, int weight) {
    return new QueueInfo(name, weight, null, true, null);
  }

  /** This queue, with {@code fallback} as its job order if it names none. */
  public QueueInfo withJobQueuePolicyIfUnset(JobQueuePolicy fallback) {
    return jobQueuePolicy != null
        ? this
        : new QueueInfo(
            name,
            weight,
            capability,
            reclaimable,
            fallback,
            priority,
            open,
            parent,
            guarantee,
            preemptMinRuntime,
            reclaimMinRuntime);
  }

  /** This queue placed under {@code newParent} (null = top level) with {@code newGuarantee}. */
  public QueueInfo inTree(String newParent, Resource newGuarantee) {
    return new QueueInfo(
        name,
        weight,
        capability,
        reclaimable,
        jobQueuePolicy,
        priority,
        open,
        newParent,
        newGuarantee,
        preemptMinRuntime,
        reclaimMinRuntime);
  }

  public Optional<Resource> capabilityIfSet() {
    return Optional.ofNullable(capability);
  }
}
