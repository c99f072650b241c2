package io.tyrl.arranger.scheduler.api;

/**
 * Where the job controller says a job stands ({@code status.stage}); the scheduler reads it to know
 * whether gang rules still apply. Gang is an admission rule: it holds until the job's minimum first
 * runs ({@link #RUNNING}), and again once the job is rescheduled. Ended jobs never reach the core.
 */
public enum JobStage {
  /** Created, waiting for the scheduler to place its minimum for the first time. */
  PENDING,
  /** The minimum is placed and the leader is being started; it has not run yet (since creation or a reschedule). */
  STARTING,
  /** The minimum has run: gang rules no longer apply, and a lost pod is placed back like an elastic one. */
  RUNNING,
  /** The job lost its leader (or its minimum) and gave everything back; it waits for its minimum again. */
  RESCHEDULING;

  public static JobStage parse(String name) {
    return EnumNames.parse(JobStage.class, name, "status.stage");
  }
}
