package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.reasons.SchedulingReasons;

/**
 * Why a job is not (fully) placed; written into {@code status.scheduling.reason} ({@link
 * SchedulingReasons}).
 */
public enum ReasonCode {
  /** Some pods do not fit right now; they may fit once resources free up. */
  UNSCHEDULABLE(SchedulingReasons.UNSCHEDULABLE),
  /**
   * The job can never fit: a pod larger than every admissible node, a resource no node has, or a
   * minimum above its queue's capability.
   */
  NEVER_FITS(SchedulingReasons.NEVER_FITS),
  /** The gang's wait time passed before its minimum was met. */
  GANG_TIMEOUT(SchedulingReasons.GANG_TIMEOUT),
  /** Another member of the job's gang group could not meet its minimum in this cycle. */
  GANG_GROUP_UNSATISFIED(SchedulingReasons.GANG_GROUP_UNSATISFIED),
  /**
   * A NonStrict partial reservation was held too long and was given back to break a possible
   * deadlock.
   */
  GANG_RESERVATION_RELEASED(SchedulingReasons.GANG_RESERVATION_RELEASED),
  /** The job's queue cannot hold its minimum yet, so the job was not enqueued. */
  NOT_ENQUEUED(SchedulingReasons.NOT_ENQUEUED),
  /** The job's queue has reached its deserved share. */
  QUEUE_OVERUSED(SchedulingReasons.QUEUE_OVERUSED),
  /** The job names a queue that does not exist. */
  QUEUE_NOT_FOUND(SchedulingReasons.QUEUE_NOT_FOUND),
  INVALID_QUEUE(SchedulingReasons.INVALID_QUEUE),
  /** The job itself is inconsistent, or scheduling it failed unexpectedly. */
  INVALID_JOB(SchedulingReasons.INVALID_JOB),
  /**
   * The job's minimum is pipelined onto resources still being released (victims it evicted, or pods
   * already terminating); it is placed for real once they are gone. See {@link
   * CycleResult#victims()}.
   */
  WAITING_FOR_VICTIMS(SchedulingReasons.WAITING_FOR_VICTIMS),
  /** Some or all of the job's pods were evicted for a job of higher priority in its queue. */
  PREEMPTED(SchedulingReasons.PREEMPTED),
  /** Some or all of the job's pods were evicted for a queue below its deserved share. */
  RECLAIMED(SchedulingReasons.RECLAIMED);

  private final String statusValue;

  ReasonCode(String statusValue) {
    this.statusValue = statusValue;
  }

  public String statusValue() {
    return statusValue;
  }
}
