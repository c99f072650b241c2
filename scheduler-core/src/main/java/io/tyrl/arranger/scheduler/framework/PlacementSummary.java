package io.tyrl.arranger.scheduler.framework;

/** Says in words how much of a job is placed: {@code leader+3/8 workers placed}. */
public final class PlacementSummary {

  private PlacementSummary() {}

  public static String describe(JobState job) {
    return describe(job, "placed");
  }

  /** {@code leader+3/8 workers could be placed}, for placements about to be discarded. */
  public static String describe(JobState job, String verb) {
    String leader = job.isLeaderPlaced() ? "leader" : "leader not placed";
    String separator = job.isLeaderPlaced() ? "+" : ", ";
    return leader + separator + job.placedWorkers() + "/" + job.workerCount() + " workers " + verb;
  }

  /** The job's gang minimum: {@code leader+4 workers}. */
  public static String describeMinimum(JobState job) {
    return "leader+" + Math.min(job.minimumWorkers(), job.workerCount()) + " workers";
  }
}
