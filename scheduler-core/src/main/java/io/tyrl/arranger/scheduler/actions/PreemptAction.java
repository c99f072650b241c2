package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;
import java.util.Map;

/**
 * Within a queue, lets a job whose gang minimum is not placed take room from running jobs of
 * strictly lower {@code spec.priority} (kube-batch's preempt). Queues in queue order, jobs in job
 * order; the victims are chosen through the tiers' preemptable functions by the {@link
 * VictimSelector}, which pipelines the preemptor onto what they release. Jobs that opted out are
 * never victims.
 *
 * <p>No ping-pong: only strictly lower priority is preempted, so a victim can never take the room
 * back from its preemptor, and two jobs of equal priority never evict each other.
 *
 * <p>Run it before {@code allocate} ({@code "enqueue, reclaim, preempt, allocate, backfill"}): a
 * preemptor still waiting from the previous cycle has claimed its victims' releasing room already
 * ({@link ResumeWaitingJobs}), and one that needs more makes room again before allocate could give
 * the idle room it also needs to a lower-priority job.
 */
public final class PreemptAction implements Action {

  public static final String NAME = "preempt";

  private final PlacementOptions options;

  PreemptAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, PlacementOptions.SCHEMA, PreemptAction::new);
  }

  @Override
  public List<Action> prerequisites() {
    return List.of(new ResumeWaitingJobs(options));
  }

  @Override
  public void execute(Session session) {
    List<JobState> running = VictimSelector.jobsWithRunningPods(session);
    VictimSelector selector =
        new VictimSelector(session, options, new PreemptRules(session), running);
    for (QueueState queue : session.queuesInOrder()) {
      for (JobState preemptor :
          session.jobsInOrder(queue, job -> VictimSelector.isStarving(session, job))) {
        session.forOneJob(
            preemptor,
            "preempting for",
            () -> {
              if (VictimSelector.isStarving(session, preemptor)
                  && selector.makeRoom(preemptor) == VictimSelector.Outcome.NO_ROOM
                  && hasLowerPriorityPods(preemptor, running)) {
                preemptor.noteEvictionMiss(
                    EvictionMissWording.preempt(session, selector.lastMiss()));
              }
            });
      }
    }
  }

  private static boolean hasLowerPriorityPods(JobState preemptor, List<JobState> running) {
    for (JobState job : running) {
      if (job.queue() == preemptor.queue() && job.info().priority() < preemptor.info().priority()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Same queue, strictly lower priority, through the tiers' preemptable functions; no queue limit
   * moves.
   */
  private record PreemptRules(Session session) implements EvictionRules {

    @Override
    public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
      return candidate.queue() == preemptor.queue()
          && candidate.info().priority() < preemptor.info().priority();
    }

    @Override
    public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
      return session.tiers().preemptableVictims(preemptor, candidates);
    }

    @Override
    public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
      return true;
    }

    @Override
    public boolean mayEvictWhole(JobState candidate) {
      return EvictionRules.hasRun(candidate, candidate.queue().preemptMinRuntime(), session.now());
    }

    @Override
    public ReasonCode victimReason() {
      return ReasonCode.PREEMPTED;
    }

    @Override
    public String describe(JobState preemptor, JobState victim) {
      return EvictionWording.preemptedBy(
          preemptor.key(), preemptor.info().priority(), victim.info().priority());
    }
  }
}
