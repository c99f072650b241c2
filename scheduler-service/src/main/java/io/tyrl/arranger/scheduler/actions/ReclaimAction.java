package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Across queues, lets a queue below its deserved share take room back from reclaimable queues above
 * theirs (kube-batch's reclaim). Queues in queue order; in a queue that is not overused, jobs whose
 * gang minimum is not placed, in job order, until the queue is overused. Victims are chosen through
 * the tiers' reclaimable functions by the {@link VictimSelector}.
 *
 * <p>The action itself keeps the queue-level rules whatever the tiers say (a tier without the
 * proportion plugin may decide alone): a victim's queue must be reclaimable and, after the eviction,
 * still hold at least its deserved share in some resource the victims free — so it is taken from only
 * while strictly above its share, and only down to it. A queue that deserves nothing (no plugin set
 * shares) reclaims nothing. Since the queue that gives stays at or above its share, it never has cause
 * to reclaim back: no ping-pong between queues.
 */
public final class ReclaimAction implements Action {

  public static final String NAME = "reclaim";

  private final PlacementOptions options;

  ReclaimAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, ArgumentSchema.of(PlacementOptions.PERCENTAGE_OF_NODES_TO_SCORE,
        PlacementOptions.MIN_FEASIBLE_NODES_TO_FIND), ReclaimAction::new);
  }

  @Override
  public void execute(Session session) {
    VictimSelector.resumeWaitingJobs(session, options);
    ReclaimRules rules = new ReclaimRules(session);
    VictimSelector selector = new VictimSelector(session, options, rules, VictimSelector.jobsWithRunningPods(session));
    List<QueueState> queues = new ArrayList<>(session.queues());
    queues.sort(session::compareQueues);
    for (QueueState queue : queues) {
      if (!rules.mayReclaim(queue)) {
        continue;
      }
      List<JobState> reclaimers = new ArrayList<>();
      for (JobState job : session.jobs()) {
        if (job.queue() == queue && VictimSelector.isStarving(session, job)) {
          reclaimers.add(job);
        }
      }
      reclaimers.sort(session::compareJobs);
      for (JobState reclaimer : reclaimers) {
        if (!rules.mayReclaim(queue)) {
          break;
        }
        try {
          if (VictimSelector.isStarving(session, reclaimer)) {
            selector.makeRoom(reclaimer);
          }
        } catch (RuntimeException e) {
          session.failJob(reclaimer, ReasonCode.INVALID_JOB, "reclaiming for the job failed: " + e);
        }
      }
    }
  }

  /** Other, reclaimable queues above their deserved share, never taken below it. */
  private static final class ReclaimRules implements EvictionRules {

    private final Session session;
    private final Map<QueueState, long[]> deserved = new HashMap<>();

    ReclaimRules(Session session) {
      this.session = session;
      for (QueueState queue : session.queues()) {
        deserved.put(queue, session.dimensions().vector(queue.deserved()));
      }
    }

    /** A queue with a share, not yet at it. */
    boolean mayReclaim(QueueState queue) {
      return !queue.deserved().isEmpty() && !session.tiers().isOverused(queue);
    }

    @Override
    public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
      QueueState queue = candidate.queue();
      return queue != preemptor.queue() && queue.info().reclaimable() && aboveDeserved(queue);
    }

    private boolean aboveDeserved(QueueState queue) {
      long[] share = deserved.get(queue);
      for (int d = 0; d < share.length; d++) {
        if (d != ResourceDimensions.PODS && queue.allocated(d) > share[d]) {
          return true;
        }
      }
      return false;
    }

    @Override
    public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
      return session.tiers().reclaimableVictims(preemptor, candidates);
    }

    @Override
    public boolean withinLimits(List<TaskState> victims) {
      Map<QueueState, long[]> freed = new HashMap<>();
      for (TaskState victim : victims) {
        long[] sum = freed.computeIfAbsent(victim.job().queue(), queue -> new long[session.dimensions().size()]);
        for (int d = 0; d < sum.length; d++) {
          sum[d] += victim.request(d);
        }
      }
      for (Map.Entry<QueueState, long[]> entry : freed.entrySet()) {
        if (!keepsDeservedSomewhere(entry.getKey(), entry.getValue())) {
          return false;
        }
      }
      return true;
    }

    private boolean keepsDeservedSomewhere(QueueState queue, long[] freed) {
      long[] share = deserved.get(queue);
      for (int d = 0; d < freed.length; d++) {
        if (d != ResourceDimensions.PODS && freed[d] > 0 && queue.allocated(d) - freed[d] >= share[d]) {
          return true;
        }
      }
      return false;
    }

    @Override
    public ReasonCode victimReason() {
      return ReasonCode.RECLAIMED;
    }

    @Override
    public String describe(JobState preemptor, JobState victim) {
      return "reclaimed by queue " + preemptor.queue().name() + " (below its deserved share) for " + preemptor.key()
          + "; queue " + victim.queue().name() + " is above its deserved share";
    }
  }
}
