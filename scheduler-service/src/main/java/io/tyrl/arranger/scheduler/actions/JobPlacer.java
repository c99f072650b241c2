package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.FitDiagnosis;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Places a job's pending pods into a statement and explains, in the job's note, what could not be placed. */
final class JobPlacer {

  /** What one pass over a job's pending pods found. */
  record Outcome(TaskState firstUnplaced, FitDiagnosis diagnosis, String neverFits) {
    boolean neverFitsFound() {
      return neverFits != null;
    }
  }

  private final Session session;
  private final PlacementOptions options;

  JobPlacer(Session session, PlacementOptions options) {
    this.session = session;
    this.options = options;
  }

  /**
   * Tries each pending pod that {@code which} accepts, leader first. Stops early only when the job's
   * minimum can never be met: the leader, or more workers than the minimum can spare, can never fit.
   */
  Outcome placePending(JobState job, Statement statement, Predicate<TaskState> which) {
    NodeSearch search = session.nodeSearch();
    TaskState firstUnplaced = null;
    FitDiagnosis diagnosis = null;
    int workersNeverFitting = 0;
    int spareWorkers = job.workerCount() - Math.min(job.minimumWorkers(), job.workerCount());
    List<TaskState> pending = job.pendingTasks();
    for (TaskState task : pending) {
      if (!which.test(task)) {
        continue;
      }
      NodeSearch.Result result = search.findBest(task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
      if (result.found()) {
        statement.allocate(task, result.node());
        continue;
      }
      if (firstUnplaced == null) {
        firstUnplaced = task;
        diagnosis = result.diagnosis();
      }
      if (job.placedTasks() > 0 && session.isJobReady(job)) {
        continue;
      }
      Optional<String> never = search.neverFitsReason(task);
      if (never.isPresent() && (task.isLeader() || ++workersNeverFitting > spareWorkers)) {
        return new Outcome(task, result.diagnosis(), never.get());
      }
    }
    return new Outcome(firstUnplaced, diagnosis, null);
  }

  /** Keeps the statement if the job is ready or may keep partial placements, else discards it; notes why. */
  boolean settle(JobState job, Statement statement, Outcome outcome) {
    if (outcome.neverFitsFound()) {
      statement.discard();
      session.failJob(job, ReasonCode.NEVER_FITS, outcome.neverFits());
      return false;
    }
    boolean ready = job.placedTasks() > 0 && session.isJobReady(job);
    if (ready) {
      statement.commit();
      if (!job.isFullyPlaced()) {
        note(job, PlacementSummary.describe(job) + explain(outcome));
      }
      return true;
    }
    if (session.tiers().mayKeepPartialPlacements(job)) {
      statement.commit();
      note(job, "NonStrict reservation, gang minimum " + PlacementSummary.describeMinimum(job) + " not met yet: "
          + PlacementSummary.describe(job) + explain(outcome));
      return false;
    }
    String couldBePlaced = PlacementSummary.describe(job, "could be placed");
    statement.discard();
    note(job, "gang minimum " + PlacementSummary.describeMinimum(job) + " not met (" + couldBePlaced + ")" + explain(outcome));
    return false;
  }

  static String explain(Outcome outcome) {
    return outcome.diagnosis() == null ? "" : "; " + outcome.diagnosis().describe(outcome.firstUnplaced().info().roleName());
  }

  /** Notes an Unschedulable reason, keeping a released-reservation note of this cycle in front. */
  static void note(JobState job, String message) {
    JobNote previous = job.note();
    if (previous != null && previous.reason() == ReasonCode.GANG_RESERVATION_RELEASED) {
      job.note(new JobNote(ReasonCode.GANG_RESERVATION_RELEASED, previous.message() + "; " + message));
    } else {
      job.note(new JobNote(ReasonCode.UNSCHEDULABLE, message));
    }
  }
}
