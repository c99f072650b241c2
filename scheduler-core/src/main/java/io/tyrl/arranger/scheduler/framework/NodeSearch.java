package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Finds the best node for a task, fast enough for thousands of nodes:
 *
 * <ol>
 *   <li>static filters (labels, taints, conditions) are evaluated once per distinct {@link
 *       PlacementConstraints} and node; the nodes that pass form that constraint's candidate list;
 *   <li>a node whose idle capacity is below the smallest request of any task in the session, in
 *       some resource, is exhausted: no task can fit it until something is released, so it is
 *       dropped from candidate lists (a fit check then touches only nodes that may fit);
 *   <li>dynamic predicates (resource fit) run over the remaining candidates. On a cluster of at
 *       most {@value #EXACT_SEARCH_MAX_NODES} nodes every candidate is checked and every feasible
 *       node scored (exact: BinPack and LeaderFirst find their best node). Above that, unless
 *       {@code percentageOfNodesToScore} asks for 100, the search samples like kube-scheduler: it
 *       starts where the previous search for the same constraints stopped (rotation) and stops once
 *       enough feasible nodes were found (percentageOfNodesToScore); nodes already holding the
 *       job's pods are always considered, so that job (anti-)affinity sees them;
 *   <li>feasible nodes are scored with the weighted plugin scores; the highest wins, the first
 *       found on a tie (in an exact search, the job's own nodes first, then snapshot order);
 *   <li>a request that fitted nowhere is remembered until something is released.
 * </ol>
 *
 * Statements checkpoint this search state: a discarded statement restores the ledgers exactly, so
 * memories from before it stay true, and those made during it are rolled back.
 *
 * <p>Two restrictions serve topology. Inside {@link #within}, a task with a {@link NodeFence} is
 * looked for among the fence's nodes only, group by group, exactly and without memory (a failure
 * inside one domain says nothing of another). Nodes {@link #hold held} for a waiting gang are
 * skipped for every other job's pods for the rest of the cycle.
 */
public final class NodeSearch {

  /**
   * The nodes passing the static filters for one set of constraints, and the live (not exhausted)
   * part of them.
   */
  private static final class StaticCandidates {
    final int[] passing;
    final PredicateResult[] rejectionByNode;
    final boolean[] permanentlyRejected;
    int[] live;
    int liveSize;
    int liveVersion = -1;
    long exhaustedAtCompaction;
    int nextStart;

    StaticCandidates(
        int[] passing, PredicateResult[] rejectionByNode, boolean[] permanentlyRejected) {
      this.passing = passing;
      this.rejectionByNode = rejectionByNode;
      this.permanentlyRejected = permanentlyRejected;
    }
  }

  /**
   * {@code pod} is null unless verdicts depend on the pod's own namespace and labels (see {@link
   * #judgePodsByTheirNeighbours}).
   */
  private record RequestKey(PlacementConstraints constraints, long[] request, Object pod) {
    RequestKey(PlacementConstraints constraints, long[] request) {
      this(constraints, request, null);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof RequestKey key
          && constraints.equals(key.constraints)
          && Arrays.equals(request, key.request)
          && java.util.Objects.equals(pod, key.pod);
    }

    @Override
    public int hashCode() {
      return constraints.hashCode() * 31 + Arrays.hashCode(request);
    }
  }

  private record PodIdentity(String namespace, Map<String, String> labels) {}

  private record RememberedFailure(long generation, FitDiagnosis diagnosis) {}

  /**
   * A full count of the room for one pod shape, smaller than what was asked; valid until something
   * is released.
   */
  private record RememberedShortage(long generation, int room, FitDiagnosis diagnosis) {}

  /**
   * How many pods of one shape the room left could take, and, when it fell short, why nodes turn
   * the shape away.
   */
  public record Room(int pods, FitDiagnosis diagnosis) {}

  /** Where the search memories stood when a statement began. */
  record Checkpoint(int failures, int exhausted, int shortages, long generation) {}

  /**
   * Up to this many nodes in the cluster, a search with the default (adaptive) percentage checks
   * and scores every node: exact placement where it is cheap. Above it, sampling keeps a cycle over
   * tens of thousands of nodes within its budget. Volcano and kube-scheduler sample from 100 nodes
   * up.
   */
  public static final int EXACT_SEARCH_MAX_NODES = 1000;

  /**
   * Above {@link #EXACT_SEARCH_MAX_NODES}, the adaptive rule stops at this many feasible nodes
   * (never below {@code minFeasibleNodesToFind}). kube-scheduler's 5% floor would score 1,000 of
   * 20,000 nodes for every pod; 500 keeps a cycle of 100,000 pods within its budget, and is what
   * the rule gives at 5,000 nodes anyway.
   */
  public static final int ADAPTIVE_MAX_FEASIBLE_NODES = 500;

  /** The chosen node, or why there is none. */
  public record Result(NodeState node, FitDiagnosis diagnosis) {
    public boolean found() {
      return node != null;
    }
  }

  private final Session session;
  private final NodeState[] nodes;
  private final long[] smallestRequest;
  private final Map<PlacementConstraints, StaticCandidates> candidatesByConstraints =
      new HashMap<>();
  private PlacementConstraints lastConstraints;
  private StaticCandidates lastCandidates;
  private final Map<RequestKey, RememberedFailure> failures = new HashMap<>();
  private final List<RequestKey> failureLog = new ArrayList<>();
  private final Map<RequestKey, Optional<String>> neverFits = new HashMap<>();
  private final Map<RequestKey, RememberedShortage> shortages = new HashMap<>();
  private final List<RequestKey> shortageLog = new ArrayList<>();
  private int[] releasingNodes;
  private long releasingNodesGeneration = -1;
  private final boolean[] exhausted;
  private int[] exhaustedLog = new int[64];
  private int exhaustedLogSize;
  private long exhaustedCount;
  private long exhaustedGeneration;
  private int liveVersion;
  private boolean podsJudgedByNeighbours;
  private Function<TaskState, NodeFence> fences;
  private final JobState[] heldFor;
  private int[] heldNodes = new int[0];
  private final String[] heldReason;

  /** Each job's kept sample, by {@link JobState#index()}; null until its first sampled search. */
  private KeptSample[] keptByJob = new KeptSample[0];

  /**
   * Scratch marks of one kept sample's nodes ({@code sampleMarks[i] == sampleStamp}), and where in
   * the sample each is.
   */
  private final int[] sampleMarks;

  private final int[] sampleSlots;

  /**
   * The nodes whose verdict or score a kept sample may hold stale, in order: every ledger change (a
   * device change comes with one), every node exhausted and every node held. A kept sample reads
   * only what was logged since it was last brought up to date.
   */
  private int[] changeLog = new int[1024];

  private int changeLogSize;

  private long samplesTaken;

  private int sampleStamp;

  /** Placements undone so far; a kept sample is good only under the count it was taken at. */
  private long placementsUndone;

  NodeSearch(Session session, long[] smallestRequest) {
    this.session = session;
    this.nodes = session.nodeArray();
    this.smallestRequest = smallestRequest;
    this.exhausted = new boolean[nodes.length];
    this.exhaustedGeneration = session.releaseGeneration();
    this.heldFor = new JobState[nodes.length];
    this.heldReason = new String[nodes.length];
    this.sampleMarks = new int[nodes.length];
    this.sampleSlots = new int[nodes.length];
    session.watchNodeLedgers(node -> logChange(node.index()));
  }

  private void logChange(int index) {
    if (changeLogSize == changeLog.length) {
      changeLog = Arrays.copyOf(changeLog, changeLogSize * 2);
    }
    changeLog[changeLogSize++] = index;
  }

  /** How many fresh samples searches have kept so far in the session. */
  long samplesTaken() {
    return samplesTaken;
  }

  /** The nodes of the job's kept sample, in the order it weighs them; empty before its first. */
  int[] keptNodes(JobState job) {
    if (job.index() >= keptByJob.length || keptByJob[job.index()] == null) {
      return new int[0];
    }
    KeptSample kept = keptByJob[job.index()];
    return IntStream.range(0, kept.size())
        .filter(i -> !kept.isDropped(i))
        .map(kept::node)
        .toArray();
  }

  /**
   * Runs {@code work} with each task's search kept to its fence ({@code fences} answers null for a
   * task free to go anywhere); the fences in force before are back afterwards.
   */
  public <T> T within(Function<TaskState, NodeFence> taskFences, Supplier<T> work) {
    Function<TaskState, NodeFence> before = fences;
    fences = taskFences;
    try {
      return work.get();
    } finally {
      fences = before;
    }
  }

  private NodeFence fenceFor(TaskState task) {
    return fences == null ? null : fences.apply(task);
  }

  /**
   * Keeps the nodes for {@code job} until the cycle ends: other jobs' pods are not placed there (a
   * node already held for another job stays that job's). How a gang waiting for a topology domain
   * keeps smaller jobs from fragmenting the domain it is waiting for.
   *
   * @param reason what other pods' diagnosis says of such a node
   */
  public void hold(int[] nodeIndices, JobState job, String reason) {
    for (int index : nodeIndices) {
      if (heldFor[index] == null) {
        heldFor[index] = job;
        heldReason[index] = reason;
        heldNodes = Arrays.copyOf(heldNodes, heldNodes.length + 1);
        heldNodes[heldNodes.length - 1] = index;
        logChange(index);
      }
    }
  }

  /**
   * True when the task may go to the node under the fences in force ({@link #within}): always, for
   * a task without one.
   */
  public boolean isInFence(TaskState task, NodeState node) {
    NodeFence fence = fenceFor(task);
    return fence == null || fence.thenAnywhere() || fence.contains(node.index());
  }

  /** The job the node is held for, if any. */
  public Optional<JobState> heldFor(NodeState node) {
    return Optional.ofNullable(heldFor[node.index()]);
  }

  /**
   * Indices of the nodes held for some job ({@link #hold}), in the order they were held; few, so
   * reading them is cheaper than asking every node. The array returned is never changed (a hold
   * replaces it), so callers must not change it either.
   */
  public int[] heldNodes() {
    return heldNodes;
  }

  /** True when the node is held for a job other than {@code job}. */
  public boolean heldForOther(int nodeIndex, JobState job) {
    JobState holder = heldFor[nodeIndex];
    return holder != null && holder != job;
  }

  private boolean heldFromTask(TaskState task, int index) {
    return heldForOther(index, task.job());
  }

  /**
   * How many feasible nodes to find before choosing: every one on a cluster of at most {@value
   * #EXACT_SEARCH_MAX_NODES} nodes when {@code percentage} is 0 (adaptive, the default), or when it
   * is 100; otherwise kube-scheduler's rule — all of them up to {@code minimum}, beyond that {@code
   * percentage}% of the candidates, or when percentage is 0 an adaptive share (50% minus 1% per 125
   * nodes, at least 5%) of at most {@value #ADAPTIVE_MAX_FEASIBLE_NODES} nodes.
   */
  public static int wantedFeasibleNodes(
      int clusterNodes, int candidates, int percentage, int minimum) {
    if (isExact(clusterNodes, percentage) || candidates <= minimum) {
      return candidates;
    }
    if (percentage > 0) {
      return Math.max(minimum, (int) ((long) candidates * percentage / 100));
    }
    int share = Math.max(5, 50 - candidates / 125);
    return Math.max(
        minimum, Math.min(ADAPTIVE_MAX_FEASIBLE_NODES, (int) ((long) candidates * share / 100)));
  }

  private static boolean isExact(int clusterNodes, int percentage) {
    return percentage >= 100 || (percentage == 0 && clusterNodes <= EXACT_SEARCH_MAX_NODES);
  }

  /**
   * Called by a plugin whose predicates depend on the other pods and on the pod's own labels
   * (inter-pod affinity, topology spread): "fitted nowhere" is then remembered per pod identity,
   * and not at all for a pod whose own constraints may be met by pods placed later in the cycle.
   */
  public void judgePodsByTheirNeighbours() {
    podsJudgedByNeighbours = true;
  }

  private RequestKey requestKey(TaskState task) {
    return podsJudgedByNeighbours
        ? new RequestKey(
            task.info().constraints(),
            task.request(),
            new PodIdentity(task.job().info().namespace(), task.info().labels()))
        : new RequestKey(task.info().constraints(), task.request());
  }

  /** Finds the best node among enough feasible ones (see {@link #wantedFeasibleNodes}). */
  public Result findBest(TaskState task, int percentage, int minimum) {
    syncWithReleases();
    NodeFence fence = fenceFor(task);
    if (fence != null) {
      Result fenced = findBestFenced(task, fence);
      if (fenced.found() || !fence.thenAnywhere()) {
        return fenced;
      }
    }
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    RequestKey key = requestKey(task);
    boolean remember =
        !podsJudgedByNeighbours || !task.info().constraints().podAffinity().filtersByOtherPods();
    RememberedFailure failure = remember ? failures.get(key) : null;
    if (failure != null && failure.generation() == session.releaseGeneration()) {
      return new Result(null, failure.diagnosis());
    }
    Tiers tiers = session.tiers();
    boolean exact = isExact(nodes.length, percentage);
    long[] context =
        exact || fence != null || podsJudgedByNeighbours || task.isLeader()
            ? null
            : tiers.scoreContext(task);
    KeptSample kept = context == null ? null : keptFor(task.job());
    if (kept != null && kept.matches(task, context, generation(), percentage, minimum)) {
      NodeState again = bestOfKept(task, candidates, tiers, kept);
      if (again != null) {
        return new Result(again, null);
      }
    }
    int wanted = wantedFeasibleNodes(nodes.length, candidates.passing.length, percentage, minimum);
    if (kept != null) {
      kept.start(task, context, generation(), percentage, minimum, wanted, changeLogSize);
      samplesTaken++;
    }
    BestScoring best = new BestScoring(task, tiers, kept);
    for (int hinted : task.job().nodeIndicesInUse()) {
      NodeState node = nodes[hinted];
      if (candidates.rejectionByNode[hinted] == null
          && !heldFromTask(task, hinted)
          && tiers.check(task, node).fits()) {
        best.offer(node);
      }
    }
    refreshLive(candidates);
    int[] live = candidates.live;
    int size = candidates.liveSize;
    int found = 0;
    int examined = 0;
    // An exact search needs no rotation; starting at the first node makes its tie-break the
    // snapshot's order.
    int start = size == 0 || exact ? 0 : candidates.nextStart % size;
    while (examined < size && found < wanted) {
      int index = live[(start + examined) % size];
      examined++;
      if (exhausted[index] || heldFromTask(task, index)) {
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
      best.offer(node);
    }
    candidates.nextStart = size == 0 || exact ? 0 : (start + examined) % size;
    if (best.node() != null) {
      return new Result(best.node(), null);
    }
    FitDiagnosis diagnosis = diagnose(task);
    if (remember) {
      failures.put(key, new RememberedFailure(session.releaseGeneration(), diagnosis));
      failureLog.add(key);
    }
    return new Result(null, diagnosis);
  }

  /**
   * The best of the kept sample for another pod of its shape: the job's nodes outside it first, as
   * a fresh search offers them, then the sample's nodes still feasible. Only the nodes the change
   * log names since the sample was last brought up to date are looked at again — dropped when
   * exhausted, held for another job or no longer feasible, scored again when their ledger changed —
   * so a reuse costs a pass over the sample's arrays, not a visit to each of its nodes. Null when
   * the sample thinned too far (a fresh search then replaces it) or holds no node.
   */
  private NodeState bestOfKept(
      TaskState task, StaticCandidates candidates, Tiers tiers, KeptSample kept) {
    if (kept.stampedAs() != sampleStamp) {
      // Another sample marked its nodes since, or this one's entries moved.
      sampleStamp++;
      for (int i = 0; i < kept.size(); i++) {
        int index = kept.node(i);
        if (kept.isDropped(i)) {
          continue;
        }
        if (sampleMarks[index] == sampleStamp) {
          // Offered twice by the fresh search (one of the job's nodes, and met again in the
          // rotation): the first entry stands for it, with the same score.
          kept.drop(i);
          continue;
        }
        sampleMarks[index] = sampleStamp;
        sampleSlots[index] = i;
      }
      kept.stampedAs(sampleStamp);
    }
    int logged = changeLogSize;
    if (logged - kept.syncedAt() > 8L * kept.size()) {
      // More was logged since (a round of every other job's pods) than the sample holds: visiting
      // each kept node is the cheaper way to find the changed ones.
      for (int i = 0; i < kept.size(); i++) {
        if (!kept.isDropped(i)) {
          lookAgain(task, tiers, kept, i);
        }
      }
    } else {
      for (int entry = kept.syncedAt(); entry < logged; entry++) {
        int index = changeLog[entry];
        if (sampleMarks[index] == sampleStamp && !kept.isDropped(sampleSlots[index])) {
          lookAgain(task, tiers, kept, sampleSlots[index]);
        }
      }
    }
    kept.syncedAt(logged);
    BestScoring best = new BestScoring(task, tiers, null);
    for (int hinted : task.job().nodeIndicesInUse()) {
      if (sampleMarks[hinted] != sampleStamp
          && candidates.rejectionByNode[hinted] == null
          && !heldFromTask(task, hinted)
          && tiers.check(task, nodes[hinted]).fits()) {
        best.offer(nodes[hinted]);
      }
    }
    for (int i = 0; i < kept.size(); i++) {
      if (!kept.isDropped(i)) {
        best.offer(nodes[kept.node(i)], kept.score(i));
      }
    }
    kept.compactIfThin();
    return kept.thickEnough() ? best.node() : null;
  }

  /** Entry {@code slot} of the sample, whose node the change log names: dropped or scored again. */
  private void lookAgain(TaskState task, Tiers tiers, KeptSample kept, int slot) {
    int index = kept.node(slot);
    if (exhausted[index] || heldFromTask(task, index)) {
      kept.drop(slot);
      return;
    }
    NodeState node = nodes[index];
    if (node.changes() == kept.changes(slot)) {
      return;
    }
    if (!tiers.check(task, node).fits()) {
      if (node.idleBelow(smallestRequest)) {
        markExhausted(index);
      }
      kept.drop(slot);
      return;
    }
    kept.rescored(slot, tiers.score(task, node), node.changes());
  }

  /**
   * What a kept sample was taken under: the release generation and the placements undone, which
   * between them change with every event that can make a node feasible again.
   */
  private long[] generation() {
    return new long[] {session.releaseGeneration(), placementsUndone};
  }

  private KeptSample keptFor(JobState job) {
    int index = job.index();
    if (index >= keptByJob.length) {
      keptByJob = Arrays.copyOf(keptByJob, Math.max(index + 1, 2 * keptByJob.length));
    }
    if (keptByJob[index] == null) {
      keptByJob[index] = new KeptSample();
    }
    return keptByJob[index];
  }

  /**
   * The fenced search: the groups in order, every node of a group checked and scored; nothing
   * remembered.
   */
  private Result findBestFenced(TaskState task, NodeFence fence) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    Tiers tiers = session.tiers();
    for (int[] group : fence.groups()) {
      BestScoring best = new BestScoring(task, tiers, null);
      for (int index : group) {
        if (candidates.rejectionByNode[index] == null
            && !exhausted[index]
            && !heldFromTask(task, index)
            && tiers.check(task, nodes[index]).fits()) {
          best.offer(nodes[index]);
        }
      }
      if (best.node() != null) {
        return new Result(best.node(), null);
      }
    }
    return new Result(null, diagnose(task));
  }

  /**
   * The best node where the task fits only once pods being released there are gone: admitted by the
   * static filters, with room in what will be idle after the releases and what pipelined tasks
   * already claim. Null when there is none (always, when nothing is being released).
   */
  public NodeState findBestReleasing(TaskState task) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    NodeFence fence = fenceFor(task);
    BestScoring best = new BestScoring(task, session.tiers(), null);
    for (int index : releasingNodes()) {
      if (fence == null || fence.contains(index) || fence.thenAnywhere()) {
        offerIfFitsOnceReleased(best, candidates, nodes[index]);
      }
    }
    return best.node();
  }

  /**
   * As {@link #findBestReleasing(TaskState)}, among the given nodes only, in their order: a
   * preemptor also looks at the nodes its own victims, chosen a moment ago, are releasing.
   */
  public NodeState findBestReleasing(TaskState task, Collection<NodeState> among) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    NodeFence fence = fenceFor(task);
    BestScoring best = new BestScoring(task, session.tiers(), null);
    for (NodeState node : among) {
      if (fence == null || fence.contains(node.index()) || fence.thenAnywhere()) {
        offerIfFitsOnceReleased(best, candidates, node);
      }
    }
    return best.node();
  }

  private void offerIfFitsOnceReleased(
      BestScoring best, StaticCandidates candidates, NodeState node) {
    if (candidates.rejectionByNode[node.index()] == null
        && !heldFromTask(best.task, node.index())
        && node.fitsFutureIdle(best.task)) {
      best.offer(node);
    }
  }

  /**
   * The highest-scoring node offered to one search; on a tie the first offered stays. Each node
   * offered goes into {@code sample} too, when one is being taken.
   */
  private static final class BestScoring {
    private final TaskState task;
    private final Tiers tiers;
    private final KeptSample sample;
    private NodeState node;
    private double score = Double.NEGATIVE_INFINITY;

    BestScoring(TaskState task, Tiers tiers, KeptSample sample) {
      this.task = task;
      this.tiers = tiers;
      this.sample = sample;
    }

    void offer(NodeState candidate) {
      double candidateScore = tiers.score(task, candidate);
      if (sample != null) {
        sample.add(candidate, candidateScore);
      }
      offer(candidate, candidateScore);
    }

    void offer(NodeState candidate, double candidateScore) {
      if (node == null || candidateScore > score) {
        node = candidate;
        score = candidateScore;
      }
    }

    NodeState node() {
      return node;
    }
  }

  /**
   * How many pods like {@code task} (same constraints and request) the cluster could still take,
   * counted up to {@code wanted}: per node admitted by the static filters, how many such requests
   * fit in what will be idle once releasing pods are gone. An upper bound — pods of other shapes
   * and the other predicates can only lower it — so a count below what a gang minimum needs proves
   * it cannot be met, without placing a pod. A full count that fell short is remembered until
   * something is released: placements only shrink the room.
   */
  public Room roomFor(TaskState task, int wanted) {
    syncWithReleases();
    NodeFence fence = fenceFor(task);
    if (fence != null && !fence.thenAnywhere()) {
      return roomWithin(task, wanted, fence);
    }
    RequestKey key = new RequestKey(task.info().constraints(), task.request());
    RememberedShortage shortage = shortages.get(key);
    if (shortage != null && shortage.generation() == session.releaseGeneration()) {
      return shortage.room() < wanted
          ? new Room(shortage.room(), shortage.diagnosis())
          : new Room(wanted, null);
    }
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    refreshLive(candidates);
    long room = 0;
    for (int i = 0; i < candidates.liveSize && room < wanted; i++) {
      int index = candidates.live[i];
      if (!exhausted[index] && !heldFromTask(task, index)) {
        long fitting = podsFitting(task, nodes[index]);
        room += fitting;
        if (fitting == 0 && nodes[index].idleBelow(smallestRequest)) {
          // Full for every task, as a search would find: later counts and searches skip it.
          markExhausted(index);
        }
      }
    }
    // Nodes exhausted now may still take pods once their releasing pods are gone.
    int[] releasing = releasingNodes();
    for (int i = 0; i < releasing.length && room < wanted; i++) {
      int index = releasing[i];
      if (exhausted[index]
          && candidates.rejectionByNode[index] == null
          && !heldFromTask(task, index)) {
        room += podsFitting(task, nodes[index]);
      }
    }
    if (room < wanted) {
      FitDiagnosis diagnosis = diagnose(task);
      shortages.put(
          key, new RememberedShortage(session.releaseGeneration(), (int) room, diagnosis));
      shortageLog.add(key);
      return new Room((int) room, diagnosis);
    }
    return new Room(wanted, null);
  }

  /** {@link #roomFor} among a fence's nodes: counted afresh each time, remembered never. */
  private Room roomWithin(TaskState task, int wanted, NodeFence fence) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    long room = 0;
    for (int[] group : fence.groups()) {
      for (int i = 0; i < group.length && room < wanted; i++) {
        int index = group[i];
        if (candidates.rejectionByNode[index] == null && !heldFromTask(task, index)) {
          room += podsFitting(task, nodes[index]);
        }
      }
    }
    return room < wanted ? new Room((int) room, diagnose(task)) : new Room(wanted, null);
  }

  private static long podsFitting(TaskState task, NodeState node) {
    long fitting = Long.MAX_VALUE;
    for (int dimension : task.requestedDimensions()) {
      long future = node.futureIdle(dimension);
      fitting = Math.min(fitting, future <= 0 ? 0 : future / task.request(dimension));
      if (fitting == 0) {
        return 0;
      }
    }
    long milli = node.gpuDimension() < 0 ? 0 : task.request(node.gpuDimension());
    if (milli > 0 && node.gpuDevices() != null) {
      fitting = Math.min(fitting, node.gpuDevices().podsFittingLater(milli));
    }
    return fitting == Long.MAX_VALUE ? 0 : fitting;
  }

  /** Indices of the nodes where something is being released, for the current ledger. */
  private int[] releasingNodes() {
    if (releasingNodes == null || releasingNodesGeneration != session.releaseGeneration()) {
      int[] found = new int[nodes.length];
      int count = 0;
      for (NodeState node : nodes) {
        if (node.hasReleasing()) {
          found[count++] = node.index();
        }
      }
      releasingNodes = Arrays.copyOf(found, count);
      releasingNodesGeneration = session.releaseGeneration();
    }
    return releasingNodes;
  }

  /**
   * The verdict of the static filters alone (labels, taints, node conditions), from the
   * per-constraints cache. Preemption uses it: the dynamic predicates judge the ledger as it is
   * now, while a preemptor is fitted into what will be free once its victims are gone.
   */
  public PredicateResult admits(TaskState task, NodeState node) {
    PredicateResult rejection =
        candidatesFor(task.info().constraints()).rejectionByNode[node.index()];
    return rejection != null ? rejection : PredicateResult.FITS;
  }

  /** Counts, over every node, the first reason it rejects the task. */
  public FitDiagnosis diagnose(TaskState task) {
    StaticCandidates candidates = candidatesFor(task.info().constraints());
    NodeFence fence = fenceFor(task);
    Map<String, Integer> rejections = new HashMap<>();
    int fitting = 0;
    int counted = 0;
    for (NodeState node : nodes) {
      if (fence != null && !fence.thenAnywhere() && !fence.contains(node.index())) {
        continue;
      }
      counted++;
      PredicateResult result = candidates.rejectionByNode[node.index()];
      if (result == null && heldFromTask(task, node.index())) {
        result = PredicateResult.rejectedTransiently(heldReason[node.index()]);
      }
      if (result == null) {
        result = session.tiers().check(task, node);
      }
      if (result.fits()) {
        fitting++;
      } else {
        rejections.merge(result.reason(), 1, Integer::sum);
      }
    }
    return new FitDiagnosis(counted, fitting, rejections);
  }

  /**
   * Why the task can never fit, if so: it requests a resource no node of the cluster has at all (a
   * GPU in a cluster without GPU nodes), or some node admits it by labels and taints (transient
   * node conditions aside), yet none of them could hold its request even empty. When no node admits
   * it at all, nodes may still join, so that is not "never"; nor is anything while the cluster has
   * no node.
   */
  public Optional<String> neverFitsReason(TaskState task) {
    return neverFits.computeIfAbsent(
        new RequestKey(task.info().constraints(), task.request()), key -> computeNeverFits(task));
  }

  private Optional<String> computeNeverFits(TaskState task) {
    if (nodes.length == 0) {
      return Optional.empty();
    }
    ResourceDimensions dimensions = session.dimensions();
    StringBuilder requested = new StringBuilder();
    StringBuilder absent = new StringBuilder();
    for (int dimension : task.requestedDimensions()) {
      if (dimension != ResourceDimensions.PODS
          && task.request(dimension) > 0
          && session.clusterAllocatable(dimension) == 0) {
        String name = dimensions.name(dimension);
        requested
            .append(requested.length() > 0 ? ", " : "")
            .append(name)
            .append(' ')
            .append(Resource.formatQuantity(name, task.request(dimension)));
        absent.append(absent.length() > 0 ? " or " : "").append(name);
      }
    }
    if (absent.length() > 0) {
      return Optional.of(
          "pod "
              + task.info().roleName()
              + " requests "
              + requested
              + ", and no node has "
              + absent);
    }
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
    for (int dimension : task.requestedDimensions()) {
      if (task.request(dimension) > largest[dimension]) {
        String name = dimensions.name(dimension);
        tooLarge
            .append(tooLarge.length() > 0 ? ", " : "")
            .append(name)
            .append(' ')
            .append(Resource.formatQuantity(name, task.request(dimension)))
            .append(" > ")
            .append(Resource.formatQuantity(name, largest[dimension]));
      }
    }
    String detail =
        tooLarge.length() > 0 ? tooLarge.toString() : "no single node holds all of its request";
    return Optional.of(
        "pod "
            + task.info().roleName()
            + " is larger than each of the "
            + admissible
            + " admissible nodes ("
            + detail
            + ")");
  }

  Checkpoint checkpoint() {
    return new Checkpoint(
        failureLog.size(), exhaustedLogSize, shortageLog.size(), session.releaseGeneration());
  }

  /**
   * A placement was undone: its node may hold pods again that a kept sample dropped it for, so no
   * sample taken before stands.
   */
  void placementUndone() {
    placementsUndone++;
  }

  /** Forgets what was learnt since the checkpoint; the ledgers are back where they were then. */
  void rollback(Checkpoint checkpoint) {
    for (int i = failureLog.size() - 1; i >= checkpoint.failures(); i--) {
      failures.remove(failureLog.remove(i));
    }
    for (int i = shortageLog.size() - 1; i >= checkpoint.shortages(); i--) {
      shortages.remove(shortageLog.remove(i));
    }
    if (releasingNodesGeneration != checkpoint.generation()) {
      // Found after an eviction the rollback undid; its generation number will be reused for
      // another ledger.
      releasingNodes = null;
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
    logChange(index);
    exhaustedCount++;
    if (exhaustedLogSize == exhaustedLog.length) {
      exhaustedLog = Arrays.copyOf(exhaustedLog, exhaustedLogSize * 2);
    }
    exhaustedLog[exhaustedLogSize++] = index;
  }

  /**
   * Rebuilds the live list after a release, or compacts it once a quarter of it may be exhausted.
   */
  private void refreshLive(StaticCandidates candidates) {
    boolean stale = candidates.liveVersion != liveVersion;
    boolean crowded =
        exhaustedCount - candidates.exhaustedAtCompaction > candidates.liveSize / 4 + 1;
    if (!stale && !crowded) {
      return;
    }
    int[] source = stale ? candidates.passing : candidates.live;
    int sourceSize = stale ? candidates.passing.length : candidates.liveSize;
    int[] live =
        candidates.live == null || stale ? new int[candidates.passing.length] : candidates.live;
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
    // The pods of a job share one constraints object, and a search asks once per node it weighs:
    // hashing the constraints each time cost more than the lookup saved.
    if (constraints == lastConstraints) {
      return lastCandidates;
    }
    StaticCandidates cached = candidatesByConstraints.get(constraints);
    if (cached != null) {
      lastConstraints = constraints;
      lastCandidates = cached;
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
    StaticCandidates created =
        new StaticCandidates(Arrays.copyOf(passing, count), rejections, permanent);
    candidatesByConstraints.put(constraints, created);
    lastConstraints = constraints;
    lastCandidates = created;
    return created;
  }
}
