package io.tyrl.arranger.scheduler.api;

/** The scheduler-owned state of a TYJob (seed 000). */
public enum ScheduleState {
  UNSCHEDULED("Unscheduled"),
  SCHEDULED_SUCCEED("ScheduledSucceed"),
  SCHEDULED_FAILED("ScheduledFailed"),
  SCHEDULED_PARTLY("ScheduledPartly");

  private final String statusValue;

  ScheduleState(String statusValue) {
    this.statusValue = statusValue;
  }

  /** The value written into {@code TYJob.status.scheduleState}. */
  public String statusValue() {
    return statusValue;
  }
}
