package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * Places pods without requests (best effort), which take no share of any queue, so neither an
 * overused queue nor a refused enqueue holds them back. Gang rules still apply: a job whose minimum
 * is met gets its best-effort pods one by one; a job whose remaining pods are all best effort is
 * placed like allocate does (kept only if its minimum is met, or its gang mode keeps partial
 * placements); any other job is left to allocate, since its best-effort pods alone cannot meet its
 * minimum.
 */
public final class BackfillAction implements Action {

  public static final String NAME = "backfill";

  private final PlacementOptions options;

  BackfillAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, PlacementOptions.SCHEMA, BackfillAction::new);
  }

  @Override
  public void execute(Session session) {
    JobPlacer placer = new JobPlacer(session, options);
    List<JobState> jobs = new ArrayList<>();
    for (JobState job : session.jobs()) {
      if (!job.isFailed()
          && job.queue() != null
          && !job.isHeldBack()
          && !job.isWaitingForVictims()
          && job.info().gang().group() == null
          && hasBestEffortPending(job)) {
        jobs.add(job);
      }
    }
    jobs.sort(session::compareJobs);
    for (JobState job : jobs) {
      session.forOneJob(
          job,
          "backfilling",
          () -> {
            boolean ready = job.placedTasks() > 0 && session.isJobReady(job);
            boolean onlyBestEffortLeft =
                job.pendingTasks().stream().allMatch(TaskState::isBestEffortTask);
            if (ready || onlyBestEffortLeft) {
              Statement statement = session.newStatement();
              placer.settle(
                  job, statement, placer.placePending(job, statement, TaskState::isBestEffortTask));
            }
          });
    }
  }

  private static boolean hasBestEffortPending(JobState job) {
    for (TaskState task : job.tasks()) {
      if (task.isPending() && task.isBestEffortTask()) {
        return true;
      }
    }
    return false;
  }
}
