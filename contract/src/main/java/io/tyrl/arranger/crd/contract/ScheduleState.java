package io.tyrl.arranger.crd.contract;

/**
 * The scheduler-owned {@code status.scheduleState} of a TYJob: written by the scheduler, read by
 * the controller.
 */
public enum ScheduleState {
  UNSCHEDULED("Unscheduled"),
  SCHEDULED_PARTLY("ScheduledPartly"),
  SCHEDULED_SUCCEED("ScheduledSucceed"),
  SCHEDULED_FAILED("ScheduledFailed");

  private final String wireName;

  ScheduleState(String wireName) {
    this.wireName = wireName;
  }

  /** The value in {@code status.scheduleState}. */
  public String wireName() {
    return wireName;
  }

  /** Whether the scheduler has placed at least the job's minimum, so pods may be created. */
  public boolean isPlaced() {
    return this == SCHEDULED_PARTLY || this == SCHEDULED_SUCCEED;
  }

  /**
   * Reads {@code status.scheduleState}; absent (the scheduler has not looked at the job yet) or
   * unknown values mean {@link #UNSCHEDULED}, the one state in which the controller only waits.
   */
  public static ScheduleState fromWireNameOrUnscheduled(String value) {
    for (ScheduleState state : values()) {
      if (state.wireName.equals(value)) {
        return state;
      }
    }
    return UNSCHEDULED;
  }
}
