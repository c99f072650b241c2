package io.tyrl.arranger.scheduler.api;

import java.util.Objects;

/**
 * A queue at the end of a cycle: what its status reports and its metrics show. Every job of the
 * queue that the cycle did not fail is in exactly one of pending, inqueue and running.
 *
 * @param deserved its share of the cluster, as the plugin that computes shares set it (proportion);
 *     empty when no such plugin is configured
 * @param allocated what its jobs' placed pods request
 * @param pendingJobs jobs not admitted: enqueue refused them (the queue or the cluster cannot hold
 *     their minimum, or the queue is closed) and they hold nothing
 * @param inqueueJobs admitted jobs whose gang minimum is not placed yet (waiting for room, for
 *     victims, or holding a partial NonStrict reservation)
 * @param runningJobs jobs whose gang minimum is placed
 * @param overused the queue holds something and has reached its deserved share in every resource it
 *     deserves: allocate serves it no further in this cycle
 * @param unplacedJobs jobs not fully placed, elastic pods included (the pending-jobs metric)
 */
public record QueueSummary(
    String name,
    Resource deserved,
    Resource allocated,
    int pendingJobs,
    int inqueueJobs,
    int runningJobs,
    boolean overused,
    int unplacedJobs) {

  public QueueSummary {
    Objects.requireNonNull(name, "name");
    deserved = deserved == null ? Resource.EMPTY : deserved;
    allocated = allocated == null ? Resource.EMPTY : allocated;
  }

  /**
   * What the queue's status shows, without the metric-only count: equal summaries need no new
   * write.
   */
  public QueueSummary forStatus() {
    return new QueueSummary(
        name, deserved, allocated, pendingJobs, inqueueJobs, runningJobs, overused, 0);
  }
}
