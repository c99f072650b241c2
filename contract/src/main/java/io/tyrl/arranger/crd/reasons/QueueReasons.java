package io.tyrl.arranger.crd.reasons;

import java.util.List;

/**
 * The reasons a Queue's status conditions and Events carry. {@code docs/what-you-see.md} explains
 * each; a test keeps that page complete.
 */
public final class QueueReasons {

  /**
   * The queue's place in the queue tree is invalid (an unknown parent, a cycle, children guaranteed
   * more than it, jobs in a queue with children): the reason of its {@code TreeValid=False}
   * condition, and of the Warning Event recorded when the problem appears or changes. The jobs
   * under it wait with {@link SchedulingReasons#INVALID_QUEUE}.
   */
  public static final String INVALID_QUEUE_TREE = "InvalidQueueTree";

  /** Every reason a Queue's conditions and Events carry. */
  public static final List<String> ALL = List.of(INVALID_QUEUE_TREE);

  private QueueReasons() {}
}
