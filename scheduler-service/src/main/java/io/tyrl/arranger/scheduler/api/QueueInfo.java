package io.tyrl.arranger.scheduler.api;

import java.util.Optional;

/**
 * A Queue: its weight in the proportion split, an optional cap ({@code capability}, null = none),
 * whether others may reclaim from it, and the default job order of its jobs.
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
    jobQueuePolicy = jobQueuePolicy == null ? JobQueuePolicy.PRIORITY : jobQueuePolicy;
  }

  public static QueueInfo of(String name, int weight) {
    return new QueueInfo(name, weight, null, true, JobQueuePolicy.PRIORITY);
  }

  public Optional<Resource> capabilityIfSet() {
    return Optional.ofNullable(capability);
  }
}
