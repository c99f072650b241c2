package io.tyrl.arranger.crd.contract.status;

/**
 * The keys of {@code Queue.status}, which the scheduler writes from each cycle's queue summary and
 * compares with what is stored, by their JSON names.
 */
public final class QueueStatusFields {

  /** The queue's fair share (of its parent's, in a tree); a resource list. */
  public static final String DESERVED = "deserved";

  /** What the queue's placed pods request, its subtree's for a queue with children. */
  public static final String ALLOCATED = "allocated";

  /** What the queue is guaranteed, as the scheduler read it; a resource list. */
  public static final String GUARANTEE = "guarantee";

  /** The part of {@link #ALLOCATED} above {@link #GUARANTEE}: what reclaim may take back. */
  public static final String OVER_QUOTA = "overQuota";

  /** The parent queue as the scheduler read it; absent at the top level. */
  public static final String PARENT = "parent";

  /** Jobs not admitted. */
  public static final String PENDING = "pending";

  /** Admitted jobs whose gang minimum is not placed yet. */
  public static final String INQUEUE = "inqueue";

  /** Jobs whose gang minimum is placed. */
  public static final String RUNNING = "running";

  /** Whether allocate serves the queue no further for now. */
  public static final String OVERUSED = "overused";

  /** The queue's conditions, one entry per type. */
  public static final String CONDITIONS = "conditions";

  /**
   * True while the queue's place in the queue tree is valid; False with reason {@link
   * io.tyrl.arranger.crd.reasons.QueueReasons#INVALID_QUEUE_TREE} and the problem as its message.
   */
  public static final String TREE_VALID = "TreeValid";

  /**
   * The queue's past usage (fairness over time): written by the scheduler's leader at a bounded
   * rate, read back by the next leader so that history survives a failover. Absent = no history.
   */
  public static final String USAGE = "usage";

  /** Under {@link #USAGE}: when the amounts were taken (RFC 3339). */
  public static final String USAGE_AS_OF = "asOf";

  /** Under {@link #USAGE} and each namespace's: resource-seconds per resource, decayed. */
  public static final String USAGE_RESOURCE_SECONDS = "resourceSeconds";

  /**
   * Under {@link #USAGE}: per resource, the share of the cluster the queue held on (decayed)
   * average, 0..1.
   */
  public static final String USAGE_CLUSTER_SHARE = "clusterShare";

  /**
   * Under {@link #USAGE}: the resource used most and its share, for {@code kubectl get -o wide}.
   */
  public static final String USAGE_SUMMARY = "summary";

  /**
   * Under {@link #USAGE} and each namespace's: the amounts by the time they were held ({@code
   * start}, {@link #USAGE_RESOURCE_SECONDS}), so that a window can forget them.
   */
  public static final String USAGE_SLOTS = "slots";

  /** Under a slot: when it starts (RFC 3339). */
  public static final String USAGE_SLOT_START = "start";

  /** Under {@link #USAGE}: each namespace's usage in a leaf queue, by namespace. */
  public static final String USAGE_NAMESPACES = "namespaces";

  /**
   * Under {@link #USAGE}: the value of the Queue's reset annotation the history was last reset for;
   * a different value resets it again.
   */
  public static final String USAGE_RESET = "reset";

  /**
   * The Queue annotation that resets its usage history: set it to a new value (a timestamp, say)
   * and the scheduler starts the queue's history from nothing once.
   */
  public static final String RESET_USAGE_ANNOTATION = "arranger.tyrl.io/reset-usage";

  private QueueStatusFields() {}
}
