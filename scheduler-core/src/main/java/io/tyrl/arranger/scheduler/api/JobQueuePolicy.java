package io.tyrl.arranger.scheduler.api;

/** How jobs are ordered inside a queue (seed 000 "JobQueuePolicy"). */
public enum JobQueuePolicy { PRIORITY, DRF;

  /** Parses the CRD spelling ("Priority", "DRF"). */
  public static JobQueuePolicy parse(String name) {
    return EnumNames.parse(JobQueuePolicy.class, name, "jobQueuePolicy");
  }
}
