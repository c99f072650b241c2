package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the best node for a task, fast enough for thousands of nodes:
 * <ol>
 *   <li>static filters (labels, taints, conditions) are evaluated once per distinct
 *       {@link PlacementConstraints} and node; the nodes that pass form that constraint's candidate list;</li>
 *   <li>a node whose idle capacity is below the smallest request of any task in the session, in some
 *       resource, is exhausted: no task can fit it until something is released, so it is dropped from
 *       candidate lists (a fit check then touches only nodes that may fit);</li>
 *   <li>dynamic predicates (resource fit) run over the remaining candidates, starting where the previous
 *       search for the same constraints stopped (kube-scheduler's rotation) and stopping once enough
 *       feasible nodes were found (kube-scheduler's percentageOfNodesToScore); nodes already holding
 *       the job's pods are always considered, so that job (anti-)affinity sees them;</li>
 *   <li>feasible nodes are scored with the weighted plugin scores; the highest wins, the first found on a tie;</li>
 *   <li>a request that fitted nowhere is remembered until something is released.</li>
 * </ol>
 * Statements checkpoint this search state: a discarded statement restores the ledgers exactly, so
 * memories from before it stay true, and those made during it are rolled back.
 */
public final class NodeSearch {

  /** The nodes passing the static filters for one set of constraints, and the live (not exhausted) part of them. */
  private static final class StaticCandidates {
    final int[] passing;
    final PredicateResult[] rejectionByNode;
    final boolean[] permanentlyRejected;
    int[] live;
    int liveSize;
    int liveVersion = -1;
    long exhaustedAtCompaction;
    int nextStart;

    StaticCandidates(int[] passing, PredicateResult[] rejectionByNode, boolean[] permanentlyRejected) {
      this.passing = passing;
      this.rejectionByNode = rejectionByNode;
      this.permanentlyRejected = permanentlyRejected;
    }
  }

  /** {@code pod} is null unless verdicts depend on the pod's own namespace and labels (see {@link #judgePodsByTheirNeighbours}). */
  private record RequestKey(PlacementConstraints constraints, long[] request, Object pod) {
    RequestKey(PlacementConstraints constraints, long[] request) {
      this(constraints, request, null);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof RequestKey key && constraints.equals(key.constraints) && Arrays.equals(request, key.request)
          && java.util.Objects.equals(pod, key.pod);
    }

    @Override
    public int hashCode() {
      return constraints.hashCode() * 31 + Arrays.hashCode(request);
    }
  }

  private record PodIdentity(String namespace, Map<String, String> labels) {}

  private record RememberedFailure(long generation, FitDiagnosis diagnosis) {}

  /** Where the search memories stood when a statement began. */
  record Checkpoint(int failures, int exhausted) {}

  /** The chosen node, or why there is none. */
  public record Result(NodeState node, FitDiagnosis diagnosis) {
    public boolean found() {
      return node != null;
    }
  }

  private final Session session;
  private final NodeState[] nodes;
  private final long[] smallestRequest;
  private final Map<PlacementConstraints, StaticCandidates> candidatesByConstraints = new HashMap<>();
  private final Map<RequestKey, RememberedFailure> failures = new HashMap<>();
  private final List<RequestKey> failureLog = new ArrayList<>();
  private final Map<RequestKey, Optional<String>> neverFits = new HashMap<>();
  private final boolean[] exhausted;
  private int[] exhaustedLog = new int[64];
  private int exhaustedLogSize;
  private long exhaustedCount;
  private long exhaustedGeneration;
  private int liveVersion;
  private boolean podsJudgedByNeighbours;

  NodeSearch(Session session, long[] smallestRequest) {
    this.session = session;
    this.nodes = session.nodeArray();
    this.smallestRequest = smallestRequest;
    this.exhausted = new boolean[nodes.length];
    this.exhaustedGeneration = session.releaseGeneration();
  }

  /**
   * How many feasible nodes to find before choosing, kube-scheduler style: all of them up to
   * {@code minimum}; beyond that {@code percentage}% of the candidates, or when percentage is 0 an
   * adaptive share (50% minus 1% per 125 nodes, at least 5%).
   */
  public static int wantedFeasibleNodes(int candidates, int percentage, int minimum) {
    if (candidates <= minimum || percentage >= 100) {
      return candidates;
    }
    int share = percentage > 0 ? percentage : Math.max(5, 50 - candidates / 125);
    return Math.max(minimum, (int) ((long) candidates * share / 100));
  }

  /**
   * Called by a plugin whose predicates depend on the other pods and on the pod's own labels
   * (inter-pod affinity, topology spread): "fitted nowhere" is then remembered per pod identity, and
   * not at all for a pod whose own constraints may be met by pods placed later in the cycle.
   */
  public void judgePodsByTheirNeighbours() {
    podsJudgedByNeighbours = true;
  }

  private RequestKey requestKey(TaskState task) {
    return podsJudgedByNeighbours
        ? new RequestKey(task.info().constraints(), task.request(), new PodIdentity(task.job().info().namespace(), task.info().labels()))
        : new RequestKey(task.info().constraints(), task.request());
  }

  /** Finds the best node among enough feasible ones (see {@link #wantedFeasibleNodes}). */
  public Result findBest(TaskState task, int percentage, int minimum) {
    syncWithReleases();
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    RequestKey key = requestKey(task);
    boolean remember = !podsJudgedByNeighbours || !task.info().constraints().podAffinity().filtersByOtherPods();
    RememberedFailure failure = remember ? failures.get(key) : null;
    if (failure != null && failure.generation() == session.releaseGeneration()) {
      return new Result(null, failure.diagnosis());
    }
    Tiers tiers = session.tiers();
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int hinted : task.job().nodeIndicesInUse()) {
      NodeState node = nodes[hinted];
      if (candidates.rejectionByNode[hinted] == null && tiers.check(task, node).fits()) {
        double score = tiers.score(task, node);
        if (best == null || score > bestScore) {
          best = node;
          bestScore = score;
        }
      }
    }
    refreshLive(candidates);
    int[] live = candidates.live;
    int size = candidates.liveSize;
    int wanted = wantedFeasibleNodes(candidates.passing.length, percentage, minimum);
    int found = 0;
    int examined = 0;
    int start = size == 0 ? 0 : candidates.nextStart % size;
    while (examined < size && found < wanted) {
      int index = live[(start + examined) % size];
      examined++;
      if (exhausted[index]) {
        continue;
      }
      NodeState node = nodes[index];
      if (!tiers.check(task, node).fits()) {
        if (node.idleBelow(smallestRequest)) {
          markExhausted(index);
        }
        continue;
      }
      found++;
      double score = tiers.score(task, node);
      if (best == null || score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    candidates.nextStart = size == 0 ? 0 : (start + examined) % size;
    if (best != null) {
      return new Result(best, null);
    }
    FitDiagnosis diagnosis = diagnose(task);
    if (remember) {
      failures.put(key, new RememberedFailure(session.releaseGeneration(), diagnosis));
      failureLog.add(key);
    }
    return new Result(null, diagnosis);
  }

  /**
   * The verdict of the static filters alone (labels, taints, node conditions), from the per-constraints
   * cache. Preemption uses it: the dynamic predicates judge the ledger as it is now, while a preemptor
   * is fitted into what will be free once its victims are gone.
   */
  public PredicateResult admits(TaskState task, NodeState node) {
    PredicateResult rejection = candidatesFor(task.info().constraints()).rejectionByNode[node.index()];
    return rejection != null ? rejection : PredicateResult.FITS;
  }

  /** Checks one node for a task with every filter and predicate. */
  public PredicateResult check(TaskState task, NodeState node) {
    PredicateResult rejection = candidatesFor(task.info().constraints()).rejectionByNode[node.index()];
    return rejection != null ? rejection : session.tiers().check(task, node);
  }

  /** Counts, over every node, the first reason it rejects the task. */
  public FitDiagnosis diagnose(TaskState task) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    Map<String, Integer> rejections = new HashMap<>();
    int fitting = 0;
    for (NodeState node : nodes) {
      PredicateResult result = candidates.rejectionByNode[node.index()];
      if (result == null) {
        result = session.tiers().check(task, node);
      }
      if (result.fits()) {
        fitting++;
      } else {
        rejections.merge(result.reason(), 1, Integer::sum);
      }
    }
    return new FitDiagnosis(nodes.length, fitting, rejections);
  }

  /**
   * Why the task can never fit, if so: some node admits it by labels and taints (transient node
   * conditions aside), yet none of them could hold its request even empty. When no node admits it
   * at all, nodes may still join, so that is not "never".
   */
  public Optional<String> neverFitsReason(TaskState task) {
    return neverFits.computeIfAbsent(new RequestKey(task.info().constraints(), task.request()), key -> computeNeverFits(task));
  }

  private Optional<String> computeNeverFits(TaskState task) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    int admissible = 0;
    long[] largest = new long[session.dimensions().size()];
    for (NodeState node : nodes) {
      if (candidates.permanentlyRejected[node.index()]) {
        continue;
      }
      admissible++;
      boolean holds = true;
      for (int dimension : task.requestedDimensions()) {
        largest[dimension] = Math.max(largest[dimension], node.allocatable(dimension));
        if (task.request(dimension) > node.allocatable(dimension)) {
          holds = false;
        }
      }
      if (holds) {
        return Optional.empty();
      }
    }
    if (admissible == 0) {
      return Optional.empty();
    }
    StringBuilder tooLarge = new StringBuilder();
    ResourceDimensions dimensions = session.dimensions();
    for (int dimension : task.requestedDimensions()) {
      if (task.request(dimension) > largest[dimension]) {
        String name = dimensions.name(dimension);
        tooLarge.append(tooLarge.length() > 0 ? ", " : "").append(name).append(' ')
            .append(Resource.formatQuantity(name, task.request(dimension))).append(" > ")
            .append(Resource.formatQuantity(name, largest[dimension]));
      }
    }
    String detail = tooLarge.length() > 0 ? tooLarge.toString() : "no single node holds all of its request";
    return Optional.of("pod " + task.info().roleName() + " is larger than each of the " + admissible
        + " admissible nodes (" + detail + ")");
  }

  Checkpoint checkpoint() {
    return new Checkpoint(failureLog.size(), exhaustedLogSize);
  }

  /** Forgets what was learnt since the checkpoint; the ledgers are back where they were then. */
  void rollback(Checkpoint checkpoint) {
    for (int i = failureLog.size() - 1; i >= checkpoint.failures(); i--) {
      failures.remove(failureLog.remove(i));
    }
    if (exhaustedLogSize > checkpoint.exhausted()) {
      for (int i = checkpoint.exhausted(); i < exhaustedLogSize; i++) {
        exhausted[exhaustedLog[i]] = false;
      }
      exhaustedLogSize = checkpoint.exhausted();
      liveVersion++;
    }
  }

  private void syncWithReleases() {
    if (exhaustedGeneration != session.releaseGeneration()) {
      Arrays.fill(exhausted, false);
      exhaustedGeneration = session.releaseGeneration();
      liveVersion++;
    }
  }

  private void markExhausted(int index) {
    exhausted[index] = true;
    exhaustedCount++;
    if (exhaustedLogSize == exhaustedLog.length) {
      exhaustedLog = Arrays.copyOf(exhaustedLog, exhaustedLogSize * 2);
    }
    exhaustedLog[exhaustedLogSize++] = index;
  }

  /** Rebuilds the live list after a release, or compacts it once a quarter of it may be exhausted. */
  private void refreshLive(StaticCandidates candidates) {
    boolean stale = candidates.liveVersion != liveVersion;
    boolean crowded = exhaustedCount - candidates.exhaustedAtCompaction > candidates.liveSize / 4 + 1;
    if (!stale && !crowded) {
      return;
    }
    int[] source = stale ? candidates.passing : candidates.live;
    int sourceSize = stale ? candidates.passing.length : candidates.liveSize;
    int[] live = candidates.live == null || stale ? new int[candidates.passing.length] : candidates.live;
    int size = 0;
    for (int i = 0; i < sourceSize; i++) {
      if (!exhausted[source[i]]) {
        live[size++] = source[i];
      }
    }
    candidates.live = live;
    candidates.liveSize = size;
    candidates.liveVersion = liveVersion;
    candidates.exhaustedAtCompaction = exhaustedCount;
  }

  private StaticCandidates candidatesFor(PlacementConstraints constraints) {
    StaticCandidates cached = candidatesByConstraints.get(constraints);
    if (cached != null) {
      return cached;
    }
    PredicateResult[] rejections = new PredicateResult[nodes.length];
    boolean[] permanent = new boolean[nodes.length];
    int[] passing = new int[nodes.length];
    int count = 0;
    for (NodeState node : nodes) {
      Tiers.StaticVerdict verdict = session.tiers().filter(constraints, node);
      if (verdict.first().fits()) {
        passing[count++] = node.index();
      } else {
        rejections[node.index()] = verdict.first();
        permanent[node.index()] = verdict.permanentlyRejected();
      }
    }
    StaticCandidates created = new StaticCandidates(Arrays.copyOf(passing, count), rejections, permanent);
    candidatesByConstraints.put(constraints, created);
    return created;
  }
}
