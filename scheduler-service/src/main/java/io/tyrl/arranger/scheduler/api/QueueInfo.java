package io.tyrl.arranger.scheduler.api;

import java.util.Optional;

/**
 * A Queue: its weight in the proportion split, an optional cap ({@code capability}, null = none),
 * whether others may reclaim from it, and the default job order of its jobs.
 *
 * @param jobQueuePolicy null = the scheduler configuration's {@code defaultJobQueuePolicy}, which a
 *     session fills in (see {@link #withJobQueuePolicyIfUnset})
 */
public record QueueInfo(String name, int weight, Resource capability, boolean reclaimable, JobQueuePolicy jobQueuePolicy) {

  public static final String DEFAULT_QUEUE = "default";

  public QueueInfo {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("queue name must not be blank");
    }
    if (weight < 1) {
      throw new IllegalArgumentException("queue " + name + ": weight must be >= 1, was " + weight);
    }
  }

  /** A reclaimable queue without capability whose job order is the configuration's default. */
  public static QueueInfo of(String name, int weight) {
    return new QueueInfo(name, weight, null, true, null);
  }

  /** This queue, with {@code fallback} as its job order if it names none. */
  public QueueInfo withJobQueuePolicyIfUnset(JobQueuePolicy fallback) {
    return jobQueuePolicy != null ? this : new QueueInfo(name, weight, capability, reclaimable, fallback);
  }

  public Optional<Resource> capabilityIfSet() {
    return Optional.ofNullable(capability);
  }
}
