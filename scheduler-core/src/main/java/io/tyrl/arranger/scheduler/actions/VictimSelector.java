package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Makes room for one job whose gang minimum is not placed, by evicting pods of other jobs — shared
 * by the preempt and reclaim actions, which differ only in their {@link EvictionRules}.
 *
 * <p>In one statement, each pending pod of the job, leader first, is pipelined until the job's
 * minimum is met: onto a node where it fits now, else onto one where it fits once the pods being
 * released there are gone (victims chosen earlier count as already freed, so the same job is not
 * chosen again), else onto the node needing the cheapest set of victims. Victims are offered to the
 * tiers elastic workers first (only those above their job's minimum); only if those cannot make
 * room are whole jobs offered, and a job is taken only if the tiers allow all its pods: never left
 * below its minimum, whatever the tiers say. Among nodes, fewer whole jobs beat more, then fewer
 * pods; on a node, victims go lowest priority and youngest first, and any victim not needed once
 * the room is found is spared. A queue's {@code capability} is part of the room: a pod that would
 * take its queue above it needs victims of its own queue that free the excess, on any node, and
 * every node is considered with that in mind — so a higher-priority job is not stuck behind a
 * lower-priority one in its capped queue. If the minimum cannot be met this way, or the job's queue
 * would still exceed its capability, the statement is discarded and nobody is evicted. If every pod
 * fits now without any eviction, the statement is discarded too and the allocate action places the
 * job.
 */
final class VictimSelector {

  /** What an attempt to make room came to. */
  enum Outcome {
    WAITING_FOR_VICTIMS,
    FITS_WITHOUT_EVICTION,
    PLACED,
    NO_ROOM
  }

  /**
   * Why a search found no room, for the job's reason.
   *
   * @param pod the pod no node could take with victims, or null when the search failed otherwise
   *     (no candidate at all, a limit, victims that could not go)
   * @param candidateQueues the queues whose running jobs the rules let the search look at
   * @param keptWhole the queues of candidate jobs that may not go whole yet (their queue's minimum
   *     runtime)
   */
  record Miss(TaskState pod, Set<QueueState> candidateQueues, Set<QueueState> keptWhole) {

    /** A search no rule let look at any running job. */
    static final Miss NO_CANDIDATES = new Miss(null, Set.of(), Set.of());

    /** What two searches for the same job missed on: the first pod, every queue. */
    Miss and(Miss other) {
      Set<QueueState> candidates = new TreeSet<>(QUEUES_BY_NAME);
      candidates.addAll(candidateQueues);
      candidates.addAll(other.candidateQueues);
      Set<QueueState> kept = new TreeSet<>(QUEUES_BY_NAME);
      kept.addAll(keptWhole);
      kept.addAll(other.keptWhole);
      return new Miss(pod != null ? pod : other.pod, candidates, kept);
    }
  }

  private static final Comparator<QueueState> QUEUES_BY_NAME =
      Comparator.comparing(QueueState::name);

  /** One step of an attempt, replayable. */
  private sealed interface Step permits EvictWorker, EvictWholeJob, Pipeline {}

  /** Evicts one elastic worker. */
  private record EvictWorker(TaskState worker) implements Step {}

  /**
   * Evicts a whole job.
   *
   * @param evicted its pods that ran
   * @param sparable false when it also gave back placements of this cycle, which cannot be taken
   *     back
   */
  private record EvictWholeJob(JobState job, List<TaskState> evicted, boolean sparable)
      implements Step {}

  /** Pipelines one of the preemptor's pods onto the node. */
  private record Pipeline(TaskState task, NodeState node) implements Step {}

  /**
   * What one attempt did, in order, so that it can be replayed without the victims found unneeded.
   */
  private static final class Attempt {
    final List<Step> steps = new ArrayList<>();
    final Map<JobState, List<String>> evictedPods = new LinkedHashMap<>();
    final Set<JobState> wholeJobs = new LinkedHashSet<>();
  }

  private final Session session;
  private final PlacementOptions options;
  private final EvictionRules rules;
  private final NodeVictimPlanner planner;
  private final List<JobState> jobsWithRunningPods;
  private final Set<NodeState> nodesWithReleasing = new LinkedHashSet<>();

  /**
   * This attempt's candidates of every node in victim order, sorted once when a capability first
   * needs them.
   */
  private List<TaskState> allCandidates;

  /** The jobs of the last search's candidates, in the session's order. */
  private final List<JobState> candidateJobs = new ArrayList<>();

  /**
   * Why the last search found no room; {@link Miss#NO_CANDIDATES} until a search looks at running
   * jobs.
   */
  private Miss lastMiss = Miss.NO_CANDIDATES;

  /**
   * @param jobsWithRunningPods jobs holding placements from earlier cycles — the only possible
   *     victims
   */
  VictimSelector(
      Session session,
      PlacementOptions options,
      EvictionRules rules,
      List<JobState> jobsWithRunningPods) {
    this.session = session;
    this.options = options;
    this.rules = rules;
    this.planner = new NodeVictimPlanner(session, rules);
    this.jobsWithRunningPods = jobsWithRunningPods;
    for (NodeState node : session.nodes()) {
      if (node.hasReleasing()) {
        nodesWithReleasing.add(node);
      }
    }
  }

  /** Jobs with placements from earlier cycles, in the session's order. */
  static List<JobState> jobsWithRunningPods(Session session) {
    List<JobState> running = new ArrayList<>();
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.isAllocatedSinceEarlierCycle()) {
          running.add(job);
          break;
        }
      }
    }
    return running;
  }

  /**
   * Jobs that may make room for themselves: not failed, in a queue, not in a gang group (members
   * must meet their minimums together), not already waiting or evicted, and with their minimum
   * unplaced. A job refused at enqueue qualifies for preempt (evicting within its queue is what
   * makes the queue able to hold it; reclaim leaves out one refused above its queue's share, see
   * {@link ReclaimAction}), unless its queue is closed and it holds nothing yet: a closed queue
   * admits no new job, by eviction neither. A job whose {@code preemptionPolicy} is Never waits
   * instead.
   */
  static boolean isStarving(Session session, JobState job) {
    return !job.isFailed()
        && job.queue() != null
        && !job.isHeldBack()
        && !job.isQueueBlocked()
        && !job.isWaitingForVictims()
        && job.info().mayPreempt()
        && (job.queue().info().open() || job.placedTasks() > 0)
        && job.info().gang().group() == null
        && job.hasPendingTasks()
        && !(job.placedTasks() > 0 && session.isJobReady(job));
  }

  Outcome makeRoom(JobState preemptor) {
    return makeRoom(preemptor, false);
  }

  /**
   * For a job whose minimum is placed: makes room for one more of its pending pods (surplus) by
   * evicting other jobs' surplus only — growing a job's surplus never costs another job its core.
   * The pod is pipelined onto the room its victims release.
   */
  Outcome growOne(TaskState task) {
    if (TopologyPlacement.applies(session, task.job())) {
      TopologyPlacement topology = new TopologyPlacement(session, null);
      return session
          .nodeSearch()
          .within(pod -> topology.elasticFence(pod.job(), pod), () -> growOneAnywhere(task));
    }
    return growOneAnywhere(task);
  }

  private Outcome growOneAnywhere(TaskState task) {
    JobState job = task.job();
    Map<NodeState, List<TaskState>> candidates = candidatesByNode(job);
    allCandidates = null;
    if (candidates.isEmpty()) {
      return Outcome.NO_ROOM;
    }
    Statement statement = session.newStatement();
    Attempt attempt = new Attempt();
    NodeState node = nodeFor(task, candidates, statement, attempt);
    if (node == null || !attempt.wholeJobs.isEmpty()) {
      statement.discard();
      return Outcome.NO_ROOM;
    }
    statement.pipeline(task, node);
    attempt.steps.add(new Pipeline(task, node));
    if (!evictsAnything(attempt)) {
      statement.discard();
      return Outcome.FITS_WITHOUT_EVICTION;
    }
    if (job.queue().capability().isExceeded() || job.queue().capability().isBeyondGuarantee(job)) {
      statement.discard();
      return Outcome.NO_ROOM;
    }
    statement.commit();
    record(job, attempt);
    return Outcome.WAITING_FOR_VICTIMS;
  }

  /**
   * Jobs that may grow their surplus by reclaim: running (minimum placed), with pods still pending,
   * and under the same conditions as {@link #isStarving} otherwise.
   */
  static boolean mayGrow(Session session, JobState job) {
    return !job.isFailed()
        && job.queue() != null
        && !job.isHeldBack()
        && !job.isQueueBlocked()
        && job.info().mayPreempt()
        && job.info().gang().group() == null
        && job.hasPendingTasks()
        && !job.isWaitingForVictims()
        && minimumRanBefore(job);
  }

  /**
   * True when the job's leader and gang minimum of workers were placed before this cycle: a job
   * whose minimum is only being placed now grows in a later cycle, once it has started.
   */
  private static boolean minimumRanBefore(JobState job) {
    int workers = 0;
    boolean leader = false;
    for (TaskState task : job.tasks()) {
      if (task.isAllocatedSinceEarlierCycle()) {
        if (task.isLeader()) {
          leader = true;
        } else {
          workers++;
        }
      }
    }
    return leader && workers >= Math.min(job.minimumWorkers(), job.workerCount());
  }

  /**
   * For a job the previous cycle left waiting for victims: pipelines its minimum onto the room
   * being released again, or places it for real when nothing is left to wait for.
   */
  Outcome resume(JobState waiting) {
    return makeRoom(waiting, true);
  }

  /**
   * @param placeIfFitsNow place the minimum for real when nothing needs to be waited for (a resumed
   *     job)
   */
  private Outcome makeRoom(JobState preemptor, boolean placeIfFitsNow) {
    lastMiss = Miss.NO_CANDIDATES;
    if (TopologyPlacement.applies(session, preemptor)) {
      return new TopologyPlacement(session, null)
          .inOneDomain(preemptor, () -> makeRoomAnywhere(preemptor, placeIfFitsNow));
    }
    return makeRoomAnywhere(preemptor, placeIfFitsNow);
  }

  /** Why the last search found no room; meaningful after a search that returned NO_ROOM. */
  Miss lastMiss() {
    return lastMiss;
  }

  private Outcome makeRoomAnywhere(JobState preemptor, boolean placeIfFitsNow) {
    Map<NodeState, List<TaskState>> candidates = candidatesByNode(preemptor);
    allCandidates = null;
    if (!placeIfFitsNow && candidates.isEmpty() && nodesWithReleasing.isEmpty()) {
      return noRoom(null, candidates);
    }
    // Callers run this inside Session.forOneJob, which discards the statements of a step that
    // fails.
    Statement statement = session.newStatement();
    Attempt attempt = new Attempt();
    for (TaskState task : preemptor.pendingTasks()) {
      if (preemptor.placedTasks() > 0 && session.isJobReady(preemptor)) {
        break;
      }
      NodeState node = nodeFor(task, candidates, statement, attempt);
      if (node == null) {
        statement.discard();
        return noRoom(task, candidates);
      }
      statement.pipeline(task, node);
      attempt.steps.add(new Pipeline(task, node));
    }
    if (!(preemptor.placedTasks() > 0 && session.isJobReady(preemptor))) {
      statement.discard();
      return noRoom(null, candidates);
    }
    Set<Step> unneeded = unneededEvictions(preemptor, attempt);
    if (!unneeded.isEmpty()) {
      statement.discard();
      statement = session.newStatement();
      attempt = replay(attempt, unneeded, statement);
    }
    if (!evictsAnything(attempt) && everyPipelinedPodFitsNow(preemptor)) {
      statement.discard();
      if (!placeIfFitsNow) {
        return Outcome.FITS_WITHOUT_EVICTION;
      }
      statement = session.newStatement();
      for (Step step : attempt.steps) {
        if (step instanceof Pipeline pipeline) {
          statement.allocate(pipeline.task(), pipeline.node());
        }
      }
      statement.commit();
      return Outcome.PLACED;
    }
    if (preemptor.queue().capability().isExceeded()
        || preemptor.queue().capability().isBeyondGuarantee(preemptor)) {
      statement.discard();
      return noRoom(null, candidates);
    }
    if (!rules.acceptsVictims(preemptor, evicted(attempt))) {
      statement.discard();
      return noRoom(null, candidates);
    }
    statement.commit();
    record(preemptor, attempt);
    return Outcome.WAITING_FOR_VICTIMS;
  }

  /** Remembers why the search for the job found no room (the pod it failed on, if one). */
  private Outcome noRoom(TaskState pod, Map<NodeState, List<TaskState>> candidates) {
    lastMiss = missOf(pod, candidates);
    return Outcome.NO_ROOM;
  }

  private Miss missOf(TaskState pod, Map<NodeState, List<TaskState>> candidates) {
    if (candidates.isEmpty()) {
      return Miss.NO_CANDIDATES;
    }
    Set<QueueState> queues = new TreeSet<>(QUEUES_BY_NAME);
    Set<QueueState> kept = new TreeSet<>(QUEUES_BY_NAME);
    for (JobState job : candidateJobs) {
      queues.add(job.queue());
      if (!rules.mayEvictWhole(job)) {
        kept.add(job.queue());
      }
    }
    return new Miss(pod, queues, kept);
  }

  /**
   * Victims whose room turned out not to be needed: pod by pod, a victim chosen for an early pod
   * may be made redundant by one chosen later (a whole job freeing more than its node's shortfall).
   * Latest first, a victim is spared when every node it frees still holds all pipelined pods
   * without it, and the preemptor's queue stays within its capability with it. Whole jobs holding
   * placements of this cycle are not spared, since those were given back at once.
   */
  private Set<Step> unneededEvictions(JobState preemptor, Attempt attempt) {
    int size = session.dimensions().size();
    Map<NodeState, long[]> restored = new HashMap<>();
    long[] restoredToQueue = new long[size];
    Set<Step> unneeded = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = attempt.steps.size() - 1; i >= 0; i--) {
      Step step = attempt.steps.get(i);
      List<TaskState> evicted;
      if (step instanceof EvictWorker one) {
        evicted = List.of(one.worker());
      } else if (step instanceof EvictWholeJob whole && whole.sparable()) {
        evicted = whole.evicted();
      } else {
        continue;
      }
      Map<NodeState, long[]> wanted = new HashMap<>();
      long[] wantedByQueue = new long[size];
      for (TaskState task : evicted) {
        NodeVictimPlanner.add(
            wanted.computeIfAbsent(task.node(), node -> new long[size]), task.request());
        if (task.job().queue() == preemptor.queue()) {
          NodeVictimPlanner.add(wantedByQueue, task.request());
        }
      }
      boolean spare = !keepsAPipelinedPodAway(preemptor, evicted);
      for (Map.Entry<NodeState, long[]> entry : wanted.entrySet()) {
        long[] already = restored.getOrDefault(entry.getKey(), new long[size]);
        for (int d = 0; d < size && spare; d++) {
          spare = entry.getKey().futureIdle(d) - already[d] - entry.getValue()[d] >= 0;
        }
      }
      spare =
          spare
              && preemptor
                  .queue()
                  .capability()
                  .holdsAfterGivingBack(restoredToQueue, wantedByQueue);
      if (spare) {
        unneeded.add(step);
        wanted.forEach(
            (node, amount) ->
                NodeVictimPlanner.add(restored.computeIfAbsent(node, n -> new long[size]), amount));
        NodeVictimPlanner.add(restoredToQueue, wantedByQueue);
      }
    }
    return unneeded;
  }

  /**
   * True when one of the evicted pods may not share a domain with a pod the preemptor has pipelined
   * (a required anti-affinity, either way): sparing it would leave the two side by side.
   */
  private static boolean keepsAPipelinedPodAway(JobState preemptor, List<TaskState> evicted) {
    for (TaskState pipelined : preemptor.tasks()) {
      if (pipelined.status() != TaskStatus.PIPELINED) {
        continue;
      }
      for (TaskState victim : evicted) {
        if (NodeVictimPlanner.conflicts(pipelined, pipelined.node(), victim)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * True when the attempt evicts some pod. A pod may have room on its node now and still need
   * victims: those that bring its queue back under capability.
   */
  private static boolean evictsAnything(Attempt attempt) {
    for (Step step : attempt.steps) {
      if (!(step instanceof Pipeline)) {
        return true;
      }
    }
    return false;
  }

  /** The pods the attempt evicts, in the order it chose them. */
  private static List<TaskState> evicted(Attempt attempt) {
    List<TaskState> evicted = new ArrayList<>();
    for (Step step : attempt.steps) {
      if (step instanceof EvictWorker worker) {
        evicted.add(worker.worker());
      } else if (step instanceof EvictWholeJob whole) {
        evicted.addAll(whole.evicted());
      }
    }
    return evicted;
  }

  /** Replays the attempt's steps into a fresh statement, skipping the unneeded evictions. */
  private Attempt replay(Attempt original, Set<Step> unneeded, Statement statement) {
    Attempt replayed = new Attempt();
    for (Step step : original.steps) {
      if (unneeded.contains(step)) {
        continue;
      }
      if (step instanceof Pipeline pipeline) {
        statement.pipeline(pipeline.task(), pipeline.node());
        replayed.steps.add(step);
      } else if (step instanceof EvictWorker one) {
        evictSingle(one.worker(), statement, replayed);
      } else if (step instanceof EvictWholeJob whole) {
        evictWhole(whole.job(), statement, replayed);
      }
    }
    return replayed;
  }

  /**
   * True when every node holding the job's pipelined pods has them all in its idle room already.
   */
  private boolean everyPipelinedPodFitsNow(JobState job) {
    for (TaskState task : job.tasks()) {
      if (task.status() != TaskStatus.PIPELINED) {
        continue;
      }
      NodeState node = task.node();
      for (int d = 0; d < session.dimensions().size(); d++) {
        if (node.pipelined(d) > node.idle(d)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Where the pod goes: where it fits now, else where releasing pods make room, else where victims
   * do. When placing it would take its queue above its capability, victims of its own queue must
   * free that much too: either anywhere, for a node where the pod has room already, or on the node
   * whose victims make room there — whichever plan is cheapest, every node considered.
   */
  private NodeState nodeFor(
      TaskState task,
      Map<NodeState, List<TaskState>> candidates,
      Statement statement,
      Attempt attempt) {
    NodeSearch search = session.nodeSearch();
    long[] capabilityShortfall = task.job().queue().capability().shortfall(task);
    NodeSearch.Result now =
        search.findBest(task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
    NodeState roomy = now.found() ? now.node() : search.findBestReleasing(task, nodesWithReleasing);
    if (roomy != null && !now.found() && !session.tiers().checkNeighbours(task, roomy).fits()) {
      // Room being released, next to a pod the task must avoid (or without one it needs).
      roomy = null;
    }
    if (roomy != null && capabilityShortfall == null) {
      return roomy;
    }
    NodeVictimPlanner.Plan cheapest = null;
    if (roomy != null) {
      if (allCandidates == null) {
        allCandidates = inVictimOrder(candidates);
      }
      cheapest = planner.planUnderCapability(task, roomy, allCandidates, capabilityShortfall);
    }
    for (Map.Entry<NodeState, List<TaskState>> entry : candidates.entrySet()) {
      NodeState node = entry.getKey();
      if (!search.admits(task, node).fits() || !search.isInFence(task, node)) {
        continue;
      }
      NodeVictimPlanner.Plan plan =
          planner.planOn(task, node, entry.getValue(), capabilityShortfall);
      if (plan != null && !neighboursAllow(task, plan)) {
        // A pod that may not be evicted (or one in a wider domain) keeps the task off the node.
        plan = null;
      }
      if (plan != null && (cheapest == null || plan.cheaperThan(cheapest))) {
        cheapest = plan;
      }
    }
    if (cheapest == null) {
      return null;
    }
    for (TaskState single : cheapest.singles()) {
      evictSingle(single, statement, attempt);
    }
    for (JobState job : cheapest.wholeJobs()) {
      evictWhole(job, statement, attempt);
    }
    return cheapest.node();
  }

  /**
   * True when the task's neighbours allow it on the plan's node once the plan's victims are gone,
   * as kube-scheduler's preemption checks its filters with the victims removed: inter-pod
   * (anti-)affinity, topology spread and host ports, the room apart.
   */
  private boolean neighboursAllow(TaskState task, NodeVictimPlanner.Plan plan) {
    List<TaskState> gone = new ArrayList<>(plan.singles());
    for (JobState job : plan.wholeJobs()) {
      gone.addAll(NodeVictimPlanner.placedTasks(job));
    }
    return session.asIfGone(gone, () -> session.tiers().checkNeighbours(task, plan.node()).fits());
  }

  private static List<TaskState> inVictimOrder(Map<NodeState, List<TaskState>> candidates) {
    List<TaskState> all = new ArrayList<>();
    candidates.values().forEach(all::addAll);
    all.sort(NodeVictimPlanner.VICTIM_TASK_ORDER);
    return all;
  }

  /**
   * The eligible running pods per node, nodes in index order, pods in victim order; their jobs are
   * kept in {@link #candidateJobs}.
   */
  private Map<NodeState, List<TaskState>> candidatesByNode(JobState preemptor) {
    Map<NodeState, List<TaskState>> byNode =
        new TreeMap<>(Comparator.comparingInt(NodeState::index));
    candidateJobs.clear();
    for (JobState job : jobsWithRunningPods) {
      if (job == preemptor
          || job.isFailed()
          || job.queue() == null
          || !job.info().preemptable()
          || job.isWaitingForVictims()
          || job.isHeldBack()
          || !rules.mayEvictFrom(preemptor, job)) {
        continue;
      }
      candidateJobs.add(job);
      for (TaskState task : job.tasks()) {
        if (task.isAllocatedSinceEarlierCycle()) {
          byNode.computeIfAbsent(task.node(), node -> new ArrayList<>()).add(task);
        }
      }
    }
    byNode.values().forEach(tasks -> tasks.sort(NodeVictimPlanner.VICTIM_TASK_ORDER));
    return byNode;
  }

  private void evictSingle(TaskState single, Statement statement, Attempt attempt) {
    statement.evict(single);
    attempt
        .evictedPods
        .computeIfAbsent(single.job(), job -> new ArrayList<>())
        .add(single.podName());
    attempt.steps.add(new EvictWorker(single));
    nodesWithReleasing.add(single.node());
  }

  private void evictWhole(JobState job, Statement statement, Attempt attempt) {
    List<String> pods = attempt.evictedPods.computeIfAbsent(job, j -> new ArrayList<>());
    List<TaskState> evicted = new ArrayList<>();
    boolean gaveBackFresh = false;
    for (TaskState task : NodeVictimPlanner.placedTasks(job)) {
      if (task.isAllocatedSinceEarlierCycle()) {
        nodesWithReleasing.add(task.node());
        statement.evict(task);
        pods.add(task.podName());
        evicted.add(task);
      } else {
        // Placed earlier in this cycle: no pod exists yet, so the place is simply given back.
        statement.unallocate(task);
        gaveBackFresh = true;
      }
    }
    attempt.wholeJobs.add(job);
    attempt.steps.add(new EvictWholeJob(job, evicted, !gaveBackFresh));
  }

  private void record(JobState preemptor, Attempt attempt) {
    List<Victim> victims = new ArrayList<>();
    ReasonCode reason = rules.victimReason();
    for (Map.Entry<JobState, List<String>> entry : attempt.evictedPods.entrySet()) {
      JobState victim = entry.getKey();
      boolean whole = attempt.wholeJobs.contains(victim);
      String why = rules.describe(preemptor, victim);
      victims.add(
          new Victim(
              victim.info().namespace(),
              victim.info().name(),
              entry.getValue(),
              whole,
              why,
              reason));
      if (whole) {
        session.holdBack(
            victim,
            new JobNote(
                reason,
                "evicted whole, its gang minimum "
                    + PlacementSummary.describeMinimum(victim)
                    + " could not be kept: "
                    + why));
      } else {
        victim.note(
            new JobNote(
                reason,
                entry.getValue().size()
                    + " elastic worker(s) evicted ("
                    + String.join(", ", entry.getValue())
                    + "): "
                    + why
                    + "; "
                    + PlacementSummary.describe(victim)));
      }
    }
    session.recordVictims(preemptor, victims);
    Set<String> nodes = new TreeSet<>();
    for (TaskState task : preemptor.tasks()) {
      if (task.status() == TaskStatus.PIPELINED) {
        nodes.add(task.node().name());
      }
    }
    String waitingFor =
        victims.isEmpty()
            ? "pods already being released on " + String.join(", ", nodes)
            : victims.stream().mapToInt(victim -> victim.pods().size()).sum()
                + " pod(s) of "
                + String.join(", ", victims.stream().map(Victim::jobKey).toList())
                + " to be evicted";
    preemptor.note(
        new JobNote(
            ReasonCode.WAITING_FOR_VICTIMS,
            PlacementSummary.describe(preemptor, "pipelined")
                + " onto resources being released; waiting for "
                + waitingFor));
  }
}
