package io.tyrl.arranger.scheduler.api;

import java.util.Objects;

/**
 * A queue at the end of a cycle: what its status reports and its metrics show. Every job of the
 * queue that the cycle did not fail is in exactly one of pending, inqueue and running. A queue with
 * children sums its subtree: what its descendants hold and their jobs.
 *
 * @param deserved its fair share of the cluster (of its parent's share, for a queue in a tree), as
 *     the plugin that computes shares set it (proportion); empty when no such plugin is configured
 * @param allocated what its jobs' placed pods request (its subtree's, for a queue with children)
 * @param pendingJobs jobs not admitted: enqueue refused them (the queue or the cluster cannot hold
 *     their minimum, or the queue is closed) and they hold nothing
 * @param inqueueJobs admitted jobs whose gang minimum is not placed yet (waiting for room, for
 *     victims, or holding a partial NonStrict reservation)
 * @param runningJobs jobs whose gang minimum is placed
 * @param overused the queue holds something and has reached its deserved share in every resource it
 *     deserves: allocate serves it no further in this cycle
 * @param unplacedJobs jobs not fully placed, elastic pods included (the pending-jobs metric)
 * @param parent the parent queue's name; null at the top level
 * @param guarantee what the queue is guaranteed (empty: nothing)
 * @param overQuota the part of {@code allocated} above the guarantee, per resource it holds
 * @param treeProblem why the queue's place in the tree is invalid (an unknown parent, a cycle,
 *     children guaranteed more than it, jobs in a queue with children); null when it is valid
 */
public record QueueSummary(
    String name,
    Resource deserved,
    Resource allocated,
    int pendingJobs,
    int inqueueJobs,
    int runningJobs,
    boolean overused,
    int unplacedJobs,
    String parent,
    Resource guarantee,
    Resource overQuota,
    String treeProblem) {

  public QueueSummary {
    Objects.requireNonNull(name, "name");
    deserved = deserved == null ? Resource.EMPTY : deserved;
    allocated = allocated == null ? Resource.EMPTY : allocated;
    guarantee = guarantee == null ? Resource.EMPTY : guarantee;
    overQuota = overQuota == null ? Resource.EMPTY : overQuota;
  }

  /** A top-level queue without guarantee in a valid tree. */
  public QueueSummary(
      String name,
      Resource deserved,
      Resource allocated,
      int pendingJobs,
      int inqueueJobs,
      int runningJobs,
      boolean overused,
      int unplacedJobs) {
    this(
        name,
        deserved,
        allocated,
        pendingJobs,
        inqueueJobs,
        runningJobs,
        overused,
        unplacedJobs,
        null,
        Resource.EMPTY,
        allocated,
        null);
  }

  /**
   * What the queue's status shows, without the metric-only count: equal summaries need no new
   * write.
   */
  public QueueSummary forStatus() {
    return new QueueSummary(
        name,
        deserved,
        allocated,
        pendingJobs,
        inqueueJobs,
        runningJobs,
        overused,
        0,
        parent,
        guarantee,
        overQuota,
        treeProblem);
  }
}
