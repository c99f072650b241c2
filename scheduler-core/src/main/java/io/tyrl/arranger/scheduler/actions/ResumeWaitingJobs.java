package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;
import java.util.Map;

/**
 * The step of a cycle in which the jobs the previous cycle left waiting for victims claim the room
 * being released for them again, before any other job may take it or evict anew: otherwise a job
 * served earlier in the cycle could pipeline onto that room, and the waiting job would evict a
 * second time. A job whose victims are gone and whose minimum fits now is placed for real at once,
 * for the same reason. Jobs that need more than what is released now wait for the normal pass of
 * preempt or reclaim. Queues in queue order, jobs in job order.
 *
 * <p>Not configured by name: allocate, preempt and reclaim name it as their prerequisite, and the
 * scheduler runs it once, just before the first of them in the cycle.
 */
record ResumeWaitingJobs(PlacementOptions options) implements Action {

  /** Rules that offer no victim: only room already being released can be claimed. */
  private static final EvictionRules NO_EVICTION =
      new EvictionRules() {
        @Override
        public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
          return false;
        }

        @Override
        public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
          return List.of();
        }

        @Override
        public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
          return false;
        }

        @Override
        public boolean mayEvictWhole(JobState candidate) {
          return false;
        }

        @Override
        public ReasonCode victimReason() {
          return ReasonCode.PREEMPTED;
        }

        @Override
        public String describe(JobState preemptor, JobState victim) {
          return "";
        }
      };

  @Override
  public void execute(Session session) {
    VictimSelector selector = null;
    for (QueueState queue : session.queuesInOrder()) {
      for (JobState job :
          session.jobsInOrder(
              queue,
              job -> job.info().awaitingVictims() && VictimSelector.isStarving(session, job))) {
        if (selector == null) {
          // Made once the first waiting job is found: it reads which nodes are releasing, which
          // nothing has changed yet.
          selector = new VictimSelector(session, options, NO_EVICTION, List.of());
        }
        VictimSelector resuming = selector;
        session.forOneJob(
            job,
            "resuming",
            () -> {
              resuming.resume(job);
            });
      }
    }
  }
}
