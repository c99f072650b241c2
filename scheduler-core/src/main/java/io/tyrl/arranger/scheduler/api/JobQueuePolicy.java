package io.tyrl.arranger.scheduler.api;

/** How jobs are ordered inside a queue: by priority, or by dominant resource share (DRF). */
public enum JobQueuePolicy {
  PRIORITY,
  DRF;

  /** Parses the CRD spelling ("Priority", "DRF"). */
  public static JobQueuePolicy parse(String name) {
    return EnumNames.parse(JobQueuePolicy.class, name, "jobQueuePolicy");
  }
}
