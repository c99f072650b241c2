package io.tyrl.arranger.scheduler.api;

/** Why a job is not (fully) placed; written into {@code status.scheduling.reason}. */
public enum ReasonCode {
  /** Some pods do not fit right now; they may fit once resources free up. */
  UNSCHEDULABLE("Unschedulable"),
  /** The job can never fit: a pod larger than every admissible node, or a minimum above its queue's capability. */
  NEVER_FITS("NeverFits"),
  /** The gang's wait time passed before its minimum was met. */
  GANG_TIMEOUT("GangTimeout"),
  /** Another member of the job's gang group could not meet its minimum in this cycle. */
  GANG_GROUP_UNSATISFIED("GangGroupUnsatisfied"),
  /** A NonStrict partial reservation was held too long and was given back to break a possible deadlock. */
  GANG_RESERVATION_RELEASED("GangReservationReleased"),
  /** The job's queue cannot hold its minimum yet, so the job was not enqueued. */
  NOT_ENQUEUED("NotEnqueued"),
  /** The job's queue has reached its deserved share. */
  QUEUE_OVERUSED("QueueOverused"),
  /** The job names a queue that does not exist. */
  QUEUE_NOT_FOUND("QueueNotFound"),
  /** The job itself is inconsistent, or scheduling it failed unexpectedly. */
  INVALID_JOB("InvalidJob"),
  /**
   * The job's minimum is pipelined onto resources still being released (victims it evicted, or pods
   * already terminating); it is placed for real once they are gone. See {@link CycleResult#victims()}.
   */
  WAITING_FOR_VICTIMS("WaitingForVictims"),
  /** Some or all of the job's pods were evicted for a job of higher priority in its queue. */
  PREEMPTED("Preempted"),
  /** Some or all of the job's pods were evicted for a queue below its deserved share. */
  RECLAIMED("Reclaimed");

  private final String statusValue;

  ReasonCode(String statusValue) {
    this.statusValue = statusValue;
  }

  public String statusValue() {
    return statusValue;
  }
}
