package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Across queues, lets a queue below its deserved share take room back from reclaimable queues above
 * theirs (kube-batch's reclaim). Queues in queue order; in a queue that is not overused, jobs whose
 * gang minimum is not placed (but none enqueue kept out above its queue's share), in job order,
 * until the queue is overused; then, while the queue is still below its share, running jobs grow
 * their surplus pod by pod from other queues' surplus only (never another job's core). Victims are
 * chosen through the tiers' reclaimable functions by the {@link VictimSelector}. A job that finds
 * no victims this way, while the free room of all nodes together would hold it, may move other
 * jobs' pods into free room elsewhere instead ({@link ConsolidationRules}); one that still finds
 * none, while its queue is below its guarantee, may take from queues above their guarantees even
 * where they are within their shares ({@link GuaranteeRules}).
 *
 * <p>The action itself keeps the queue-level rules whatever the tiers say (a tier without the
 * proportion plugin may decide alone; see {@link ReclaimRules}): a pod reclaims only resources its
 * queue lacks, from reclaimable queues holding more of them than they deserve, never taking those
 * below their share of what is reclaimed, and only when the reclaim lowers the total shortfall
 * below deserved shares. A queue that deserves nothing (no plugin set shares) reclaims nothing. So
 * reclaim converges: no ping-pong between queues, whatever mix of resources their pods hold.
 */
public final class ReclaimAction implements Action {

  public static final String NAME = "reclaim";

  /**
   * Whether a job that finds no victims may move other jobs into free room elsewhere ({@link
   * ConsolidationRules}); on by default.
   */
  static final ArgumentSpec<Boolean> CONSOLIDATE =
      ArgumentSpec.oneOf("consolidate", true, List.of(true, false), String::valueOf);

  private static final ArgumentSchema SCHEMA =
      ArgumentSchema.of(
          PlacementOptions.PERCENTAGE_OF_NODES_TO_SCORE,
          PlacementOptions.MIN_FEASIBLE_NODES_TO_FIND,
          CONSOLIDATE);

  private final PlacementOptions options;
  private final boolean consolidate;

  ReclaimAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
    this.consolidate = arguments.get(CONSOLIDATE);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, SCHEMA, ReclaimAction::new);
  }

  @Override
  public List<Action> prerequisites() {
    return List.of(new ResumeWaitingJobs(options));
  }

  @Override
  public void execute(Session session) {
    ReclaimRules rules = new ReclaimRules(session);
    List<JobState> jobsWithRunningPods = VictimSelector.jobsWithRunningPods(session);
    VictimSelector selector = new VictimSelector(session, options, rules, jobsWithRunningPods);
    ConsolidationRules consolidation = new ConsolidationRules(session);
    GuaranteeRules guarantees = new GuaranteeRules(session);
    // Why a job of each shape found no room in this cycle (null: nothing to say), until some
    // reclaim
    // changes the cluster.
    Map<Shape, String> foundNoRoom = new HashMap<>();
    for (QueueState queue : session.queuesInOrder()) {
      if (!rules.mayReclaim(queue)) {
        continue;
      }
      for (JobState reclaimer : session.jobsInOrder(queue, job -> mayReclaimFor(session, job))) {
        if (!rules.mayReclaim(queue)) {
          break;
        }
        if (!foundNoRoom.isEmpty()) {
          Shape shape = Shape.of(reclaimer);
          if (foundNoRoom.containsKey(shape)) {
            reclaimer.noteEvictionMiss(foundNoRoom.get(shape));
            continue;
          }
        }
        boolean evicted =
            session.forOneJob(
                reclaimer,
                "reclaiming for",
                () -> {
                  if (!mayReclaimFor(session, reclaimer)) {
                    return false;
                  }
                  VictimSelector.Outcome outcome = selector.makeRoom(reclaimer);
                  VictimSelector.Miss miss = selector.lastMiss();
                  if (outcome == VictimSelector.Outcome.NO_ROOM
                      && consolidate
                      && ConsolidationRules.mayGatherFor(session, reclaimer)) {
                    // A selector of its own: it sees the room the reclaims before it released.
                    VictimSelector mover =
                        new VictimSelector(session, options, consolidation, jobsWithRunningPods);
                    outcome = mover.makeRoom(reclaimer);
                    miss = miss.and(mover.lastMiss());
                  }
                  if (outcome == VictimSelector.Outcome.NO_ROOM
                      && GuaranteeRules.mayReclaimFor(session, reclaimer)) {
                    VictimSelector forGuarantee =
                        new VictimSelector(session, options, guarantees, jobsWithRunningPods);
                    outcome = forGuarantee.makeRoom(reclaimer);
                    miss = miss.and(forGuarantee.lastMiss());
                  }
                  if (outcome == VictimSelector.Outcome.NO_ROOM) {
                    // makeRoom gave back all it tried: the job is as it was before the search.
                    String why = EvictionMissWording.reclaim(session, reclaimer, miss);
                    reclaimer.noteEvictionMiss(why);
                    foundNoRoom.put(Shape.of(reclaimer), why);
                  }
                  return outcome == VictimSelector.Outcome.WAITING_FOR_VICTIMS;
                });
        if (evicted) {
          foundNoRoom.clear();
        }
      }
    }
    Set<Shape.PendingPod> cannotGrow = new HashSet<>();
    for (QueueState queue : session.queuesInOrder()) {
      cannotGrow.clear();
      if (!rules.mayReclaim(queue)) {
        continue;
      }
      for (JobState grower :
          session.jobsInOrder(queue, job -> VictimSelector.mayGrow(session, job))) {
        if (!rules.mayReclaim(queue)) {
          break;
        }
        session.forOneJob(
            grower, "reclaiming for", () -> grow(grower, queue, rules, selector, cannotGrow));
      }
    }
  }

  /**
   * A starving job, unless enqueue refused it while its minimum would take its queue above its fair
   * share. Such a job waits because that room is owed to other queues (enqueue lets a core borrow
   * only room nobody is owed), and reclaim is not there to overrule that: the queue lacks nothing
   * the job would take. Were it to reclaim, it would start on that room after all — on room being
   * released by victims chosen for another queue's job, which needs no victim of its own — and be
   * reclaimed again in turn. A job refused only because its queue and its siblings hold the
   * cluster, or a shared ancestor's limit, still reclaims: evicting a sibling's pods is what makes
   * the room.
   */
  private static boolean mayReclaimFor(Session session, JobState job) {
    return VictimSelector.isStarving(session, job)
        && !(job.isEnqueueRefused() && wouldTakeQueueAboveShare(session, job));
  }

  private static boolean wouldTakeQueueAboveShare(Session session, JobState job) {
    QueueState queue = job.queue();
    long[] share = session.dimensions().vector(queue.deserved());
    long[] minimum = job.minimumRequest();
    for (int d = 0; d < minimum.length; d++) {
      if (d != ResourceDimensions.PODS
          && minimum[d] > 0
          && queue.allocated(d) + queue.inqueue(d) + minimum[d] > share[d]) {
        return true;
      }
    }
    return false;
  }

  /**
   * What decides whether victims can make room for a starving job, besides the cluster: its queue,
   * its priority, what it already holds, its minimum and its pending pods (request and
   * constraints). Within a cycle, until some reclaim succeeds and changes the cluster, a job of the
   * same shape as one that found no room finds none either — on a fragmented cluster, dozens of
   * waiting jobs of a team often share one learner shape, and each search looks at every node.
   */
  private record Shape(
      QueueState queue,
      int priority,
      int placedTasks,
      int minimumWorkers,
      List<PendingPod> pending) {

    /**
     * A pending pod as a victim search sees it; in one queue, a surplus pod that found no victims
     * is followed by none of the same shape until some reclaim changes the cluster.
     */
    record PendingPod(PlacementConstraints constraints, List<Long> request) {

      static PendingPod of(TaskState task) {
        return new PendingPod(
            task.info().constraints(), Arrays.stream(task.request()).boxed().toList());
      }
    }

    static Shape of(JobState job) {
      List<PendingPod> pending = new ArrayList<>();
      for (TaskState task : job.pendingTasks()) {
        pending.add(PendingPod.of(task));
      }
      return new Shape(
          job.queue(), job.info().priority(), job.placedTasks(), job.minimumWorkers(), pending);
    }
  }

  /**
   * A running job of a queue below its share takes back surplus pod by pod, while its queue stays
   * below its share and the reclaim rules allow it; what fits without eviction is left to allocate.
   */
  private static void grow(
      JobState grower,
      QueueState queue,
      ReclaimRules rules,
      VictimSelector selector,
      Set<Shape.PendingPod> cannotGrow) {
    for (TaskState task : grower.pendingTasks()) {
      if (!rules.mayReclaim(queue) || !task.isPending()) {
        return;
      }
      if (!cannotGrow.isEmpty() && cannotGrow.contains(Shape.PendingPod.of(task))) {
        return;
      }
      VictimSelector.Outcome outcome = selector.growOne(task);
      if (outcome == VictimSelector.Outcome.NO_ROOM) {
        cannotGrow.add(Shape.PendingPod.of(task));
      } else if (outcome == VictimSelector.Outcome.WAITING_FOR_VICTIMS) {
        cannotGrow.clear();
      }
      if (outcome != VictimSelector.Outcome.WAITING_FOR_VICTIMS) {
        return;
      }
    }
  }

  /**
   * Which pods a reclaimer's pod may take, so that reclaim converges instead of ping-ponging when
   * queues hold different mixes of resources:
   *
   * <ol>
   *   <li>the pod reclaims only the resources it requests in which its queue is below its deserved
   *       share (<em>the reclaimed resources</em>); a pod that lacks none of them reclaims nothing;
   *   <li>a victim (an elastic worker, or a job taken whole) must free a reclaimed resource of
   *       which its own (reclaimable, other) queue holds more than it deserves, and after all the
   *       victims it gives, the queue still holds at least its deserved share of some reclaimed
   *       resource it gave;
   *   <li>the total shortfall below deserved shares, summed over queues and resources (each
   *       resource as a fraction of the cluster), must strictly fall: what the reclaimer's queue
   *       gains towards its shares is more than what the victims' queues lose below theirs;
   *   <li>no victim's queue, nor any queue on its branch, goes below its guarantee of a resource it
   *       gives — though it is above its share of another (a queue of cpu-heavy actors above its
   *       cpu share keeps its guaranteed GPUs).
   * </ol>
   *
   * Rule 3 is what ends ping-pong: allocation never raises that total, and each reclaim lowers it
   * by a positive amount, so with steady demand only finitely many reclaims can happen. Two queues
   * each above their share of one resource and below it in the other (cpu-heavy and GPU-heavy pods)
   * would otherwise take from each other every cycle: each reclaim gives as much shortfall to the
   * victim's queue as it takes from the reclaimer's.
   */
  static final class ReclaimRules implements EvictionRules {

    /**
     * Below this, a change in the total shortfall (a sum of fractions of the cluster) is rounding,
     * not progress.
     */
    private static final double PROGRESS = 1e-9;

    private final Session session;
    private final Map<QueueState, long[]> deserved = new HashMap<>();

    /** Rule 4 has nothing to keep on a cluster where no queue is guaranteed anything. */
    private final boolean anyGuarantee;

    ReclaimRules(Session session) {
      this.session = session;
      boolean guaranteed = false;
      for (QueueState queue : session.queues()) {
        deserved.put(queue, session.dimensions().vector(queue.deserved()));
        guaranteed |= !queue.info().guarantee().isEmpty();
      }
      this.anyGuarantee = guaranteed;
    }

    /** A queue with a share, not yet at it. */
    boolean mayReclaim(QueueState queue) {
      return !queue.deserved().isEmpty() && !session.tiers().isOverused(queue);
    }

    /**
     * In a tree the same rules hold one level up too: where the two queues' branches meet, the
     * victim's branch must be above its deserved share and the reclaimer's below its own, and every
     * queue on the victim's branch must be reclaimable. So a team takes back from the sibling
     * department that holds too much, never from a department within its share.
     */
    @Override
    public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
      QueueState queue = candidate.queue();
      if (queue == preemptor.queue()
          || queue.isInInvalidSubtree()
          || !aboveDeservedSomewhere(queue)) {
        return false;
      }
      Branches branches = Branches.of(preemptor.queue(), queue);
      for (QueueState level = queue; level != branches.theirs().parent(); level = level.parent()) {
        if (!level.info().reclaimable()) {
          return false;
        }
      }
      return aboveDeservedSomewhere(branches.theirs())
          && belowDeservedSomewhere(branches.ours(), preemptor);
    }

    private boolean belowDeservedSomewhere(QueueState queue, JobState reclaimer) {
      long[] share = deserved.get(queue);
      for (int d = 0; d < share.length; d++) {
        if (d != ResourceDimensions.PODS
            && reclaimer.minimumRequest()[d] > 0
            && queue.allocated(d) < share[d]) {
          return true;
        }
      }
      return false;
    }

    private boolean aboveDeservedSomewhere(QueueState queue) {
      long[] share = deserved.get(queue);
      for (int d = 0; d < share.length; d++) {
        if (d != ResourceDimensions.PODS && queue.allocated(d) > share[d]) {
          return true;
        }
      }
      return false;
    }

    /** Rule 1: the resources the pod requests and its queue lacks. */
    private boolean[] reclaimed(TaskState reclaimer) {
      QueueState queue = reclaimer.job().queue();
      long[] share = deserved.get(queue);
      boolean[] reclaimed = new boolean[share.length];
      for (int d : reclaimer.requestedDimensions()) {
        reclaimed[d] = d != ResourceDimensions.PODS && queue.allocated(d) < share[d];
      }
      return reclaimed;
    }

    /**
     * Rule 2 is asked of each victim as it goes: an elastic worker alone, a job offered whole (all
     * its placed pods among the candidates) as one. A job's pods that free nothing reclaimed (the
     * cpu actors of a GPU learner) go with it when the job as a whole frees a reclaimed resource
     * above its queue's share — otherwise no whole job that mixes such pods could ever make room.
     */
    @Override
    public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
      boolean[] reclaimed = reclaimed(preemptor);
      List<TaskState> eligible =
          EvictionRules.freeingWhatIsTaken(
              candidates, victim -> freesReclaimedAboveShare(victim, reclaimed));
      return eligible.isEmpty()
          ? eligible
          : session.tiers().reclaimableVictims(preemptor, eligible);
    }

    /**
     * Rule 2, per victim: it frees a reclaimed resource its queue holds more of than it deserves.
     */
    private boolean freesReclaimedAboveShare(TaskState victim, boolean[] reclaimed) {
      QueueState queue = victim.job().queue();
      long[] share = deserved.get(queue);
      for (int d : victim.requestedDimensions()) {
        if (reclaimed[d] && queue.allocated(d) > share[d]) {
          return true;
        }
      }
      return false;
    }

    @Override
    public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
      boolean[] reclaimed = reclaimed(preemptor);
      double lost = 0;
      for (Map.Entry<QueueState, long[]> entry : freedByQueue.entrySet()) {
        QueueState queue = entry.getKey();
        long[] share = deserved.get(queue);
        long[] freed = entry.getValue();
        boolean freesAnything = false;
        boolean keepsShareOfReclaimed = false;
        for (int d = 0; d < freed.length; d++) {
          if (d == ResourceDimensions.PODS || freed[d] == 0) {
            continue;
          }
          freesAnything = true;
          keepsShareOfReclaimed |= reclaimed[d] && queue.allocated(d) - freed[d] >= share[d];
          lost +=
              shortfallFraction(d, share[d], queue.allocated(d) - freed[d])
                  - shortfallFraction(d, share[d], queue.allocated(d));
        }
        if (freesAnything && !keepsShareOfReclaimed) {
          return false;
        }
      }
      if (!branchesKeepTheirShares(preemptor.job().queue(), freedByQueue, reclaimed)
          || anyGuarantee
              && !keepGuarantees(
                  session.dimensions().size(), preemptor.job().queue(), freedByQueue)) {
        return false;
      }
      QueueState own = preemptor.job().queue();
      long[] ownShare = deserved.get(own);
      double gained = 0;
      for (int d : preemptor.requestedDimensions()) {
        if (d != ResourceDimensions.PODS) {
          gained +=
              shortfallFraction(d, ownShare[d], own.allocated(d))
                  - shortfallFraction(d, ownShare[d], own.allocated(d) + preemptor.request(d));
        }
      }
      return gained - lost > PROGRESS;
    }

    /**
     * Rule 2 one level up: each branch the victims come from (the child, on their side, of the
     * queue where their branch meets the reclaimer's) still holds at least its deserved share of
     * some reclaimed resource it gave.
     */
    private boolean branchesKeepTheirShares(
        QueueState reclaimerQueue, Map<QueueState, long[]> freedByQueue, boolean[] reclaimed) {
      Map<QueueState, long[]> freedByBranch = new HashMap<>();
      for (Map.Entry<QueueState, long[]> entry : freedByQueue.entrySet()) {
        if (entry.getKey().parent() == null && reclaimerQueue.parent() == null) {
          continue;
        }
        QueueState branch = Branches.of(reclaimerQueue, entry.getKey()).theirs();
        if (branch == entry.getKey()) {
          continue;
        }
        long[] sum = freedByBranch.computeIfAbsent(branch, b -> new long[reclaimed.length]);
        for (int d = 0; d < sum.length; d++) {
          sum[d] += entry.getValue()[d];
        }
      }
      for (Map.Entry<QueueState, long[]> entry : freedByBranch.entrySet()) {
        QueueState branch = entry.getKey();
        long[] share = deserved.get(branch);
        long[] freed = entry.getValue();
        boolean freesReclaimed = false;
        boolean keeps = false;
        for (int d = 0; d < freed.length; d++) {
          if (d != ResourceDimensions.PODS && freed[d] > 0 && reclaimed[d]) {
            freesReclaimed = true;
            keeps |= branch.allocated(d) - freed[d] >= share[d];
          }
        }
        if (freesReclaimed && !keeps) {
          return false;
        }
      }
      return true;
    }

    /**
     * Rule 4: each queue that gives, and every queue above it up to where its branch meets the
     * reclaimer's, still holds at least its guarantee of every resource it gives.
     */
    static boolean keepGuarantees(
        int size, QueueState reclaimerQueue, Map<QueueState, long[]> freedByQueue) {
      Map<QueueState, long[]> freedUnder = new HashMap<>();
      for (Map.Entry<QueueState, long[]> entry : freedByQueue.entrySet()) {
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

    /**
     * How far {@code allocated} is below {@code share} in one resource, as a fraction of the
     * cluster's total.
     */
    private double shortfallFraction(int dimension, long share, long allocated) {
      long total = session.clusterAllocatable(dimension);
      return total <= 0 || allocated >= share ? 0 : (double) (share - allocated) / total;
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
      return EvictionWording.reclaimedBy(
          preemptor.queue().name(), preemptor.key(), victim.queue().name());
    }
  }
}
