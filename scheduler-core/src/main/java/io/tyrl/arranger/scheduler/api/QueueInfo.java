package io.tyrl.arranger.scheduler.api;

import java.util.Optional;

/**
 * A Queue: its weight in the proportion split, an optional cap ({@code capability}, null = none),
 * whether others may reclaim from it, the default job order of its jobs, its priority among queues
 * (higher is served first, reclaims first and gives back last) and whether it is open (a closed
 * queue admits no new job; jobs already holding pods go on).
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
    boolean open) {

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
  }

  /** An open queue of priority 0 (the shape before queue state and priority existed). */
  public QueueInfo(
      String name,
      int weight,
      Resource capability,
      boolean reclaimable,
      JobQueuePolicy jobQueuePolicy) {
    this(name, weight, capability, reclaimable, jobQueuePolicy, 0, true);
  }

  /**
   * A reclaimable, open queue of priority 0 without capability whose job order is the
   * configuration's default.
   */
  public static QueueInfo of(String name, int weight) {
    return new QueueInfo(name, weight, null, true, null);
  }

  /** This queue, with {@code fallback} as its job order if it names none. */
  public QueueInfo withJobQueuePolicyIfUnset(JobQueuePolicy fallback) {
    return jobQueuePolicy != null
        ? this
        : new QueueInfo(name, weight, capability, reclaimable, fallback, priority, open);
  }

  public Optional<Resource> capabilityIfSet() {
    return Optional.ofNullable(capability);
  }
}
