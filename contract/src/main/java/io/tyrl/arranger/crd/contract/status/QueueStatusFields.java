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

  private QueueStatusFields() {}
}
