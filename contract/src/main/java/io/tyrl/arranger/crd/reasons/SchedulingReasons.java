package io.tyrl.arranger.crd.reasons;

import java.util.List;

/**
 * Every value {@code TYJob.status.scheduling.reason} can hold — the REASON that {@code kubectl get
 * tyj -o wide} shows — in one place for both services: the scheduler writes them for the jobs it
 * cannot (fully) place, the controller writes {@link #INVALID_JOB} for a job its validation
 * refuses. The Event that reports a reason carries the same reason and the same message as the
 * status. {@code docs/what-you-see.md} explains each; a test keeps that page complete.
 */
public final class SchedulingReasons {

  /** Some pods do not fit right now; they may once resources free up. */
  public static final String UNSCHEDULABLE = "Unschedulable";

  /**
   * The job can never fit: a pod larger than every admissible node, a resource no node has, or a
   * minimum above its queue's capability.
   */
  public static final String NEVER_FITS = "NeverFits";

  /** The gang's wait time passed before its minimum was met. */
  public static final String GANG_TIMEOUT = "GangTimeout";

  /** Another member of the job's gang group could not meet its minimum in this cycle. */
  public static final String GANG_GROUP_UNSATISFIED = "GangGroupUnsatisfied";

  /** A NonStrict partial reservation was held too long and was given back. */
  public static final String GANG_RESERVATION_RELEASED = "GangReservationReleased";

  /**
   * The job's queue or the cluster cannot hold its minimum yet, or its queue is closed: not
   * admitted.
   */
  public static final String NOT_ENQUEUED = "NotEnqueued";

  /** The job's queue has reached its deserved share. */
  public static final String QUEUE_OVERUSED = "QueueOverused";

  /** The job names a queue that does not exist. */
  public static final String QUEUE_NOT_FOUND = "QueueNotFound";

  /**
   * The job's queue, or a queue above it, has an invalid place in the queue tree (an unknown
   * parent, a cycle, children guaranteed more than their parent), or the job names a queue that has
   * children: jobs under it wait until the tree is fixed.
   */
  public static final String INVALID_QUEUE = "InvalidQueue";

  /**
   * The job is malformed or outside the bounds: refused by the scheduler's reading or the
   * controller's validation.
   */
  public static final String INVALID_JOB = "InvalidJob";

  /** The job's minimum is pipelined onto resources still being released (victims it evicted). */
  public static final String WAITING_FOR_VICTIMS = "WaitingForVictims";

  /** Some or all of the job's pods were evicted for a job of higher priority in its queue. */
  public static final String PREEMPTED = "Preempted";

  /** Some or all of the job's pods were evicted for a queue below its deserved share. */
  public static final String RECLAIMED = "Reclaimed";

  /** Event only: the job's minimum is placed after it had to wait. */
  public static final String SCHEDULED = "Scheduled";

  /** Event only: pods of other jobs are being evicted so that the job fits. */
  public static final String PREEMPTING = "Preempting";

  /** Every value of {@code status.scheduling.reason}. */
  public static final List<String> ALL =
      List.of(
          UNSCHEDULABLE,
          NEVER_FITS,
          GANG_TIMEOUT,
          GANG_GROUP_UNSATISFIED,
          GANG_RESERVATION_RELEASED,
          NOT_ENQUEUED,
          QUEUE_OVERUSED,
          QUEUE_NOT_FOUND,
          INVALID_QUEUE,
          INVALID_JOB,
          WAITING_FOR_VICTIMS,
          PREEMPTED,
          RECLAIMED);

  /** The reasons of the scheduler's Events that are not a status reason too. */
  public static final List<String> EVENTS_ONLY = List.of(SCHEDULED, PREEMPTING);

  private SchedulingReasons() {}
}
