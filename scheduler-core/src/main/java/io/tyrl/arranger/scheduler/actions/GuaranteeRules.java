package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reclaim for a guarantee, tried when reclaim's own rules find no victims: a job of a queue below
 * its guarantee may take from queues holding more than theirs, even where those are within their
 * deserved shares. Reclaim proper takes only from queues above their shares; on a busy cluster the
 * pods of those sit on few nodes, and a learner that needs a whole node waits while the queues
 * whose pods fill the other nodes hold no more than their shares — the guarantee would be kept only
 * when jobs happen to end.
 *
 * <p>It converges with reclaim proper: a pod takes for its guarantee only resources its queue holds
 * less of than its guarantee, and only while placing it keeps its queue within its deserved share,
 * so the queue it fills is never one reclaim proper may take from; a victim's queue, and every
 * queue above it up to where its branch meets the reclaimer's, keeps its guarantee of what it gives
 * (as in reclaim's rule 4). In a tree the guarantee is looked at one level up too: the reclaimer's
 * branch must be below its guarantee and the victim's above its own, so a team below its guarantee
 * takes from its own department's other teams while the department holds its guarantee, and from
 * another department only when its own is short.
 */
final class GuaranteeRules implements EvictionRules {

  private final Session session;

  /**
   * Each queue's deserved share as a vector, read once per cycle: the victim search asks for the
   * pod's reclaimed resources on every node it plans.
   */
  private final Map<QueueState, long[]> shares = new HashMap<>();

  GuaranteeRules(Session session) {
    this.session = session;
  }

  /**
   * True when the job's queue holds less than its guarantee of a resource the job's minimum asks
   * for, and within its deserved share of it with the minimum placed.
   */
  static boolean mayReclaimFor(Session session, JobState job) {
    QueueState queue = job.queue();
    if (queue == null || queue.isInInvalidSubtree()) {
      return false;
    }
    long[] minimum = job.minimumRequest();
    long[] share = session.dimensions().vector(queue.deserved());
    for (int d = 0; d < minimum.length; d++) {
      if (takesForGuarantee(queue, d, minimum[d], share[d])) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the queue holds less than its guarantee of the resource, and stays within its
   * deserved share of it with the request placed. A department's guarantee is served through its
   * teams' own: what a team holds above its guarantee is over quota, whatever its department holds.
   */
  private static boolean takesForGuarantee(QueueState queue, int d, long request, long share) {
    return d != ResourceDimensions.PODS
        && request > 0
        && queue.allocated(d) < queue.guarantee(d)
        && queue.allocated(d) + request <= share;
  }

  @Override
  public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
    QueueState queue = candidate.queue();
    if (queue == null || queue == preemptor.queue() || queue.isInInvalidSubtree()) {
      return false;
    }
    Branches branches = Branches.of(preemptor.queue(), queue);
    for (QueueState level = queue; level != branches.theirs().parent(); level = level.parent()) {
      if (!level.info().reclaimable()) {
        return false;
      }
    }
    // Whether their branch has anything above its guarantee to give is withinLimits' to judge.
    return belowGuaranteeSomewhere(branches.ours(), preemptor);
  }

  private static boolean belowGuaranteeSomewhere(QueueState queue, JobState reclaimer) {
    long[] minimum = reclaimer.minimumRequest();
    for (int d = 0; d < minimum.length; d++) {
      if (d != ResourceDimensions.PODS
          && minimum[d] > 0
          && queue.allocated(d) < queue.guarantee(d)) {
        return true;
      }
    }
    return false;
  }

  /** The resources the pod takes for its guarantee. */
  private boolean[] reclaimed(TaskState reclaimer) {
    QueueState queue = reclaimer.job().queue();
    long[] share = shares.computeIfAbsent(queue, q -> session.dimensions().vector(q.deserved()));
    boolean[] reclaimed = new boolean[share.length];
    for (int d : reclaimer.requestedDimensions()) {
      reclaimed[d] = takesForGuarantee(queue, d, reclaimer.request(d), share[d]);
    }
    return reclaimed;
  }

  /**
   * A victim must free a resource the pod takes for its guarantee, of which its queue holds more
   * than its guarantee; a job offered whole is judged as one.
   */
  @Override
  public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
    boolean[] reclaimed = reclaimed(preemptor);
    List<TaskState> eligible =
        EvictionRules.freeingWhatIsTaken(
            candidates, victim -> freesReclaimedAboveGuarantee(victim, reclaimed));
    return eligible.isEmpty() ? eligible : session.tiers().reclaimableVictims(preemptor, eligible);
  }

  private static boolean freesReclaimedAboveGuarantee(TaskState victim, boolean[] reclaimed) {
    QueueState queue = victim.job().queue();
    for (int d : victim.requestedDimensions()) {
      if (reclaimed[d] && queue.allocated(d) > queue.guarantee(d)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Each victim queue, and every queue above it up to where its branch meets the reclaimer's, keeps
   * its guarantee of every resource it gives.
   */
  @Override
  public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
    return ReclaimAction.ReclaimRules.keepGuarantees(
        session.dimensions().size(), preemptor.job().queue(), freedByQueue);
  }

  @Override
  public boolean mayEvictWhole(JobState candidate) {
    return EvictionRules.hasRun(candidate, candidate.queue().reclaimMinRuntime(), session.now());
  }

  @Override
  public ReasonCode victimReason() {
    return ReasonCode.RECLAIMED;
  }

  @Override
  public String describe(JobState preemptor, JobState victim) {
    return EvictionWording.reclaimedForGuarantee(
        preemptor.queue().name(), preemptor.key(), victim.queue().name());
  }
}
