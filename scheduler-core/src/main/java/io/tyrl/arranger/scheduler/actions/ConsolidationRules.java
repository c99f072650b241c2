package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reclaim's last resort when the cluster's free room is in pieces: a job of a queue below its share
 * whose pod fits on no node, though the free room of all nodes together would hold what it still
 * needs, may move other jobs out of the way — evict pods that fit elsewhere in free room now, so
 * that one node gathers the room. A moved job is not reclaimed from its queue: its pods are placed
 * again at once in room nobody holds, so a queue's jobs may move whatever its share — but not what
 * it holds within its guarantee, which is never taken. Each plan keeps that promise for all its
 * victims together, beside the pods it pipelines; the tiers' veto (conformance, gang) and the
 * victims' queue's {@code reclaimMinRuntime} hold as for reclaim.
 *
 * <p>Reclaim's own rules would refuse these victims (their queues are within their shares), so
 * without this a guarantee on a fragmented cluster waits until jobs happen to end on one node.
 */
final class ConsolidationRules implements EvictionRules {

  private final Session session;
  private final NodeSearch search;

  /** Whether each job seen so far could move (judged once per cycle, on the room as first seen). */
  private final Map<JobState, Boolean> movable = new IdentityHashMap<>();

  /**
   * The most any one node had free of each resource when first asked: within a cycle free room only
   * shrinks (evictions release, pipelines claim), so a pod asking for more fits nowhere, and most
   * candidates are turned down without a look at every node.
   */
  private long[] mostFreeOnOneNode;

  ConsolidationRules(Session session) {
    this.session = session;
    this.search = session.nodeSearch();
  }

  /**
   * True when gathering room may help the job and its queue: the cluster's free room, all nodes
   * together, holds the pods the job must still place for its minimum (otherwise gathering it on
   * one node cannot be enough), and one of those pods asks for more of some resource than any node
   * has free while its queue holds less of that resource than it deserves — so the move serves what
   * the queue lacks, as reclaim's first rule asks, not a resource it holds its share of.
   */
  static boolean mayGatherFor(Session session, JobState job) {
    int size = session.dimensions().size();
    long[] free = new long[size];
    long[] mostOnOneNode = new long[size];
    for (NodeState node : session.nodes()) {
      for (int d = 0; d < size; d++) {
        long onNode = Math.max(0, freeNow(node, d));
        free[d] += onNode;
        mostOnOneNode[d] = Math.max(mostOnOneNode[d], onNode);
      }
    }
    long[] deserved = session.dimensions().vector(job.queue().deserved());
    long[] needed = new long[size];
    boolean lacksWhatIsInPieces = false;
    for (TaskState task : stillNeededForMinimum(job)) {
      long[] request = task.request();
      for (int d = 0; d < size; d++) {
        needed[d] += request[d];
      }
      for (int d : task.requestedDimensions()) {
        lacksWhatIsInPieces |=
            d != ResourceDimensions.PODS
                && request[d] > mostOnOneNode[d]
                && job.queue().allocated(d) < deserved[d];
      }
    }
    for (int d = 0; d < size; d++) {
      if (needed[d] > free[d]) {
        return false;
      }
    }
    return lacksWhatIsInPieces;
  }

  /** The pending pods the job's minimum still needs: its leader if not placed, then workers. */
  private static List<TaskState> stillNeededForMinimum(JobState job) {
    List<TaskState> needed = new ArrayList<>();
    int workersNeeded = Math.max(0, job.minimumWorkers() - job.placedWorkers());
    for (TaskState task : job.pendingTasks()) {
      if (task.isLeader() ? !job.isLeaderPlaced() : workersNeeded-- > 0) {
        needed.add(task);
      }
    }
    return needed;
  }

  @Override
  public boolean mayEvictFrom(JobState preemptor, JobState candidate) {
    QueueState queue = candidate.queue();
    if (queue == null || queue.isInInvalidSubtree()) {
      return false;
    }
    return movable.computeIfAbsent(
        candidate, job -> fitElsewhere(NodeVictimPlanner.placedTasks(job)));
  }

  @Override
  public List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates) {
    return candidates.isEmpty()
        ? candidates
        : session.tiers().reclaimableVictims(preemptor, candidates);
  }

  /**
   * A moved job's queue holds as much once it is placed again, so no limit moves; but until then it
   * holds less, and its job restarts: what a queue, or any queue above it, holds within its
   * guarantee is not moved, as it is not reclaimed.
   */
  @Override
  public boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue) {
    int size = session.dimensions().size();
    Map<QueueState, long[]> freedUnder = new HashMap<>();
    freedByQueue.forEach(
        (queue, freed) -> {
          for (QueueState level : queue.selfAndAncestors()) {
            long[] sum = freedUnder.computeIfAbsent(level, q -> new long[size]);
            for (int d = 0; d < size; d++) {
              sum[d] += freed[d];
            }
          }
        });
    for (Map.Entry<QueueState, long[]> entry : freedUnder.entrySet()) {
      QueueState queue = entry.getKey();
      long[] freed = entry.getValue();
      for (int d = 0; d < size; d++) {
        if (freed[d] > 0 && queue.allocated(d) - freed[d] < queue.guarantee(d)) {
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

  /**
   * Every evicted pod fits, all of them together, in free room now: room the preemptor's pods are
   * pipelined to is promised to them already ({@link #freeNow}).
   */
  @Override
  public boolean acceptsVictims(JobState preemptor, List<TaskState> evicted) {
    return fitElsewhere(evicted);
  }

  /**
   * Whether the pods fit, together, in what is free now (less what pipelined pods are promised) on
   * nodes none of them runs on, each node admitting the pod by its labels and taints; largest first
   * (extended resources such as GPUs, then pods, storage, memory, cpu), each onto the first node it
   * fits.
   */
  private boolean fitElsewhere(List<TaskState> pods) {
    Set<NodeState> theirs = new HashSet<>();
    for (TaskState pod : pods) {
      theirs.add(pod.node());
    }
    int size = session.dimensions().size();
    Map<NodeState, long[]> taken = new HashMap<>();
    List<TaskState> largestFirst = new ArrayList<>(pods);
    largestFirst.sort(
        Comparator.comparing((TaskState pod) -> widestResourceFirst(pod.request()), Arrays::compare)
            .reversed());
    if (mostFreeOnOneNode == null) {
      mostFreeOnOneNode = new long[size];
      for (NodeState node : session.nodes()) {
        for (int d = 0; d < size; d++) {
          mostFreeOnOneNode[d] = Math.max(mostFreeOnOneNode[d], freeNow(node, d));
        }
      }
    }
    for (TaskState pod : largestFirst) {
      for (int d : pod.requestedDimensions()) {
        if (pod.request()[d] > mostFreeOnOneNode[d]) {
          return false;
        }
      }
      NodeState home = null;
      for (NodeState node : session.nodes()) {
        if (theirs.contains(node) || !search.admits(pod, node).fits()) {
          continue;
        }
        long[] already = taken.computeIfAbsent(node, n -> new long[size]);
        if (fits(pod, node, already)) {
          home = node;
          break;
        }
      }
      if (home == null) {
        return false;
      }
      long[] already = taken.get(home);
      long[] request = pod.request();
      for (int d = 0; d < size; d++) {
        already[d] += request[d];
      }
    }
    return true;
  }

  /** The request with its dimensions in reverse order: extended resources first, cpu last. */
  private static long[] widestResourceFirst(long[] request) {
    long[] reversed = new long[request.length];
    for (int d = 0; d < request.length; d++) {
      reversed[d] = request[request.length - 1 - d];
    }
    return reversed;
  }

  private static boolean fits(TaskState pod, NodeState node, long[] already) {
    long[] request = pod.request();
    for (int d : pod.requestedDimensions()) {
      if (request[d] > freeNow(node, d) - already[d]) {
        return false;
      }
    }
    return !node.lacksGpuDevice(pod);
  }

  /**
   * What is idle on the node now, less what pipelined pods are promised beyond what is released.
   */
  private static long freeNow(NodeState node, int dimension) {
    long promised = node.pipelined(dimension) - node.releasing(dimension);
    return node.idle(dimension) - Math.max(0, promised);
  }

  @Override
  public ReasonCode victimReason() {
    return ReasonCode.RECLAIMED;
  }

  @Override
  public String describe(JobState preemptor, JobState victim) {
    return EvictionWording.movedFor(preemptor.queue().name(), preemptor.key());
  }
}
