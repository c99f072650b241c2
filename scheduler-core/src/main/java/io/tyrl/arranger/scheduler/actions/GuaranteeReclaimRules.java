package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.api.ReasonCode;
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
 * Reclaim's second chance, for a job whose queue holds less than its guarantee: when the share
 * rules find no room (a learner that needs a whole node, on a cluster where every node also holds
 * pods of queues within their shares), the job may take from any other queue that holds more than
 * its guarantee, as long as that queue, and every queue on its branch up to where the branches
 * meet, keeps its guarantee of every resource it gives. Guarantees are the hard promise; a fair
 * share above them is not, so a queue's guarantee wins over another's share above its own.
 *
 * <p>It converges: each such reclaim lowers the sum of the queues' shortfalls below their
 * guarantees (a pod only reclaims when it requests a resource its queue is short of), no reclaim
 * takes a queue below its guarantee, and the share rules never take a queue below its deserved
 * share, which is at least its guarantee as far as it has demand.
 */
final class GuaranteeReclaimRules implements EvictionRules {

  private final Session session;
  private final Map<QueueState, long[]> deserved = new HashMap<>();

  GuaranteeReclaimRules(Session session) {
    this.session = session;
  }

  /**
   * True when the job's queue, or a queue above it, holds less than min(guarantee, deserved share)
   * of some resource the job's minimum requests.
   */
  boolean isShortOfGuarantee(JobState job) {
    return !shortLevels(job).isEmpty();
  }

  /**
   * The job's queue and the queues above it that are short of their guarantees for it, in a
   * resource the job's own queue is also below its deserved share of: a department short of its
   * guarantee is brought back by its teams below their shares, not by one already above its own.
   */
  private List<QueueState> shortLevels(JobState job) {
    List<QueueState> shortOnes = new ArrayList<>();
    for (QueueState level : job.queue().selfAndAncestors()) {
      for (int d = 0; d < session.dimensions().size(); d++) {
        if (d != ResourceDimensions.PODS
            && job.minimumRequest()[d] > 0
            && level.allocated(d) < guaranteedNow(level, d)
            && belowShare(job.queue(), d)) {
          shortOnes.add(level);
          break;
        }
      }
    }
    return shortOnes;
  }

  private long guaranteedNow(QueueState queue, int dimension) {
    return Math.min(queue.guarantee(dimension), deserved(queue)[dimension]);
  }

  private boolean belowShare(QueueState queue, int dimension) {
    return queue.allocated(dimension) < deserved(queue)[dimension];
  }

  private long[] deserved(QueueState queue) {
    return deserved.computeIfAbsent(queue, q -> session.dimensions().vector(q.deserved()));
  }

  /**
   * Pods of a queue above its guarantee, outside some short level's subtree: room taken inside the
   * subtree of a short department does not bring the department back to its guarantee.
   */
  @Override
  public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
    QueueState queue = candidate.queue();
    if (queue == preemptor.queue() || queue.isInInvalidSubtree() || !overGuarantee(queue)) {
      return false;
    }
    List<QueueState> victimChain = queue.selfAndAncestors();
    boolean outsideAShortLevel = false;
    for (QueueState level : shortLevels(preemptor)) {
      outsideAShortLevel |= !victimChain.contains(level);
    }
    if (!outsideAShortLevel) {
      return false;
    }
    Branches branches = Branches.of(preemptor.queue(), queue);
    for (QueueState level = queue; level != branches.theirs().parent(); level = level.parent()) {
      if (!level.info().reclaimable()) {
        return false;
      }
    }
    return true;
  }

  private boolean overGuarantee(QueueState queue) {
    for (int d = 0; d < session.dimensions().size(); d++) {
      if (d != ResourceDimensions.PODS && queue.allocated(d) > queue.guarantee(d)) {
        return true;
      }
    }
    return false;
  }

  /**
   * None unless the pod requests a resource its queue is short of; then the victims that free a
   * resource their queue holds more than its guarantee of, as the tiers allow.
   */
  @Override
  public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
    boolean helps = false;
    for (QueueState level : shortLevels(preemptor.job())) {
      for (int d : preemptor.requestedDimensions()) {
        helps |=
            d != ResourceDimensions.PODS
                && level.allocated(d) < guaranteedNow(level, d)
                && belowShare(preemptor.job().queue(), d);
      }
    }
    if (!helps) {
      return List.of();
    }
    List<TaskState> eligible = new ArrayList<>();
    for (TaskState victim : candidates) {
      QueueState queue = victim.job().queue();
      for (int d : victim.requestedDimensions()) {
        if (d != ResourceDimensions.PODS && queue.allocated(d) > queue.guarantee(d)) {
          eligible.add(victim);
          break;
        }
      }
    }
    return eligible.isEmpty() ? eligible : session.tiers().reclaimableVictims(preemptor, eligible);
  }

  @Override
  public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
    return keepGuarantees(session, preemptor.job().queue(), freedByQueue);
  }

  /**
   * True when each queue that gives, and every queue above it up to where its branch meets the
   * reclaimer's, still holds at least its guarantee of every resource it gives: what a queue holds
   * within its guarantee is never reclaimed, whichever rule chose the victims.
   */
  static boolean keepGuarantees(
      Session session, QueueState reclaimerQueue, Map<QueueState, long[]> freedByQueue) {
    int size = session.dimensions().size();
    Map<QueueState, long[]> freedUnder = new HashMap<>();
    for (Map.Entry<QueueState, long[]> entry : freedByQueue.entrySet()) {
      if (entry.getKey() == reclaimerQueue) {
        continue;
      }
      QueueState top = Branches.of(reclaimerQueue, entry.getKey()).theirs();
      for (QueueState level = entry.getKey(); level != top.parent(); level = level.parent()) {
        long[] sum = freedUnder.computeIfAbsent(level, q -> new long[size]);
        for (int d = 0; d < size; d++) {
          sum[d] += entry.getValue()[d];
        }
      }
    }
    for (Map.Entry<QueueState, long[]> entry : freedUnder.entrySet()) {
      QueueState queue = entry.getKey();
      for (int d = 0; d < size; d++) {
        long given = entry.getValue()[d];
        if (d != ResourceDimensions.PODS
            && given > 0
            && queue.allocated(d) - given < queue.guarantee(d)) {
          return false;
        }
      }
    }
    return true;
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
