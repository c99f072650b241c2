package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the cheapest victims for one pod on one node, for the {@link VictimSelector}: first elastic
 * workers alone (only those above their job's minimum), then, if they cannot make room, whole jobs
 * as well — a job only if the tiers allow every pod it holds. Victims are taken greedily in victim
 * order, each only if it frees something still short, and any the room turns out not to need is
 * spared.
 *
 * <p>Room has two parts, both planned at once: on the node, the pod's shortfall there; in the pod's
 * queue, what placing it would take above the queue's {@code capability}. A victim of the pod's own
 * queue frees capability wherever it runs, so a pod that fits a node without victims there may
 * still need victims elsewhere in its queue ({@link #planUnderCapability}).
 */
final class NodeVictimPlanner {

  /**
   * Victims evict from the lowest-priority queue first (reclaim takes from several queues), then
   * the lowest job priority, then the youngest (least work lost), then by key.
   */
  static final Comparator<JobState> VICTIM_ORDER =
      Comparator.<JobState>comparingInt(job -> job.queue().info().priority())
          .thenComparingInt(job -> job.info().priority())
          .thenComparing(job -> job.info().creationTime(), Comparator.reverseOrder())
          .thenComparing(JobState::key);

  /** Within a job, the last workers go first and the leader last. */
  static final Comparator<TaskState> TASK_ORDER =
      Comparator.comparing(TaskState::isLeader)
          .thenComparing(task -> task.info().roleName())
          .thenComparing(task -> task.info().index(), Comparator.reverseOrder());

  /** Candidates in the order they are offered: by job in victim order, then within the job. */
  static final Comparator<TaskState> VICTIM_TASK_ORDER =
      Comparator.comparing(TaskState::job, VICTIM_ORDER).thenComparing(TASK_ORDER);

  /** Victims chosen on one node for one pod: elastic workers and whole jobs. */
  record Plan(NodeState node, List<TaskState> singles, List<JobState> wholeJobs) {
    int pods() {
      int pods = singles.size();
      for (JobState job : wholeJobs) {
        pods += placedTasks(job).size();
      }
      return pods;
    }

    int highestVictimPriority() {
      int highest = 0;
      for (TaskState single : singles) {
        highest = Math.max(highest, single.job().info().priority());
      }
      for (JobState job : wholeJobs) {
        highest = Math.max(highest, job.info().priority());
      }
      return highest;
    }

    /**
     * Fewer broken gangs first, then the lowest highest-priority victim (as kube-scheduler), then
     * fewer pods.
     */
    boolean cheaperThan(Plan other) {
      if (wholeJobs.size() != other.wholeJobs.size()) {
        return wholeJobs.size() < other.wholeJobs.size();
      }
      if (highestVictimPriority() != other.highestVictimPriority()) {
        return highestVictimPriority() < other.highestVictimPriority();
      }
      return pods() < other.pods();
    }
  }

  private final Session session;
  private final EvictionRules rules;

  NodeVictimPlanner(Session session, EvictionRules rules) {
    this.session = session;
    this.rules = rules;
  }

  /**
   * The cheapest victims on the node that make room there for the pod, elastic workers before whole
   * jobs; null if none suffice. With a {@code capabilityShortfall} (non-null), the victims must
   * also free that much in the pod's own queue, so that the pod fits under the queue's capability.
   */
  Plan planOn(TaskState task, NodeState node, List<TaskState> onNode, long[] capabilityShortfall) {
    Plan plan = planCountingResources(task, node, onNode, capabilityShortfall);
    return plan == null || makesGpuDeviceRoom(task, node, plan) ? plan : null;
  }

  /**
   * The victims were counted per resource; a GPU pod also needs its share on one device (or whole
   * devices), so a plan whose victims free enough GPU in total but spread over devices the pod
   * cannot use evicts no one.
   */
  private static boolean makesGpuDeviceRoom(TaskState task, NodeState node, Plan plan) {
    int gpu = node.gpuDimension();
    long milli = gpu < 0 ? 0 : task.request(gpu);
    if (milli == 0 || node.gpuDevices() == null) {
      return true;
    }
    List<TaskState> leaving = new ArrayList<>(plan.singles());
    for (JobState job : plan.wholeJobs()) {
      for (TaskState victim : job.tasks()) {
        if (victim.node() == node) {
          leaving.add(victim);
        }
      }
    }
    return node.gpuDevices().fitsLaterWithout(leaving, gpu, milli);
  }

  private Plan planCountingResources(
      TaskState task, NodeState node, List<TaskState> onNode, long[] capabilityShortfall) {
    List<TaskState> live = new ArrayList<>();
    List<TaskState> conflicting = new ArrayList<>();
    for (TaskState candidate : onNode) {
      if (isLive(candidate) && candidate.node() == node) {
        live.add(candidate);
        if (conflicts(task, node, candidate)) {
          conflicting.add(candidate);
        }
      }
    }
    if (conflicting.isEmpty()) {
      return plan(task, node, live, capabilityShortfall);
    }
    return planWith(task, node, live, conflicting, capabilityShortfall);
  }

  /**
   * True when {@code task}, on {@code node}, and the running {@code other} may not share a domain
   * by a required pod anti-affinity, either way: a term of the task matches the other pod, or a
   * term of the other pod matches the task, and both nodes carry the term's topology key with one
   * value.
   */
  static boolean conflicts(TaskState task, NodeState node, TaskState other) {
    String namespace = task.job().info().namespace();
    String otherNamespace = other.job().info().namespace();
    for (var term : task.info().constraints().podAffinity().requiredAnti()) {
      if (term.matches(otherNamespace, other.info().labels(), namespace)
          && sameDomain(node, other.node(), term.topologyKey())) {
        return true;
      }
    }
    for (var term : other.info().constraints().podAffinity().requiredAnti()) {
      if (term.matches(namespace, task.info().labels(), otherNamespace)
          && sameDomain(node, other.node(), term.topologyKey())) {
        return true;
      }
    }
    return false;
  }

  private static boolean sameDomain(NodeState first, NodeState second, String topologyKey) {
    String value = first.info().labels().get(topologyKey);
    return value != null && value.equals(second.info().labels().get(topologyKey));
  }

  /**
   * A plan that must take the {@code conflicting} pods (the pod's required anti-affinity, or
   * theirs, keeps it off the node while they run), each alone when it is an elastic worker the
   * tiers allow, else with its whole job when that may go; null when one of them may not. The rest
   * of the room is found as usual.
   */
  private Plan planWith(
      TaskState task,
      NodeState node,
      List<TaskState> live,
      List<TaskState> conflicting,
      long[] capabilityShortfall) {
    Map<JobState, List<TaskState>> placed = new HashMap<>();
    List<TaskState> workers = spareWorkers(live);
    Set<TaskState> allowedAlone =
        new HashSet<>(workers.isEmpty() ? List.of() : rules.allowedByPolicies(task, workers));
    List<TaskState> forcedSingles = new ArrayList<>();
    List<JobState> forcedJobs = new ArrayList<>();
    for (TaskState pod : conflicting) {
      if (forcedJobs.contains(pod.job())) {
        continue;
      }
      if (allowedAlone.contains(pod)) {
        forcedSingles.add(pod);
        continue;
      }
      List<TaskState> whole = placed(pod.job(), placed);
      if (!rules.mayEvictWhole(pod.job())
          || !new HashSet<>(rules.allowedByPolicies(task, whole)).containsAll(whole)) {
        return null;
      }
      forcedSingles.removeIf(single -> single.job() == pod.job());
      forcedJobs.add(pod.job());
    }
    Need need =
        new Need(
            task,
            node,
            nodeShortfall(task, node),
            capabilityShortfall == null
                ? new long[session.dimensions().size()]
                : capabilityShortfall);
    List<TaskState> rest = new ArrayList<>();
    for (TaskState candidate : live) {
      if (!forcedSingles.contains(candidate) && !forcedJobs.contains(candidate.job())) {
        rest.add(candidate);
      }
    }
    Tally forced = new Tally(need);
    forced.add(forcedSingles, 1);
    for (JobState job : forcedJobs) {
      forced.add(placed(job, placed), 1);
    }
    Plan more = forced.covered() ? null : plan(task, node, rest, capabilityShortfall, forced);
    if (!forced.covered() && more == null) {
      return null;
    }
    List<TaskState> singles = new ArrayList<>(forcedSingles);
    List<JobState> wholeJobs = new ArrayList<>(forcedJobs);
    if (more != null) {
      singles.addAll(more.singles());
      wholeJobs.addAll(more.wholeJobs());
    }
    return new Plan(node, List.copyOf(singles), List.copyOf(wholeJobs));
  }

  /**
   * For a pod that has room on the node without victims there but would take its queue above its
   * capability: the cheapest victims anywhere (candidates in victim order) that free the {@code
   * capabilityShortfall} in the pod's queue; null if none suffice.
   */
  Plan planUnderCapability(
      TaskState task, NodeState node, List<TaskState> anywhere, long[] capabilityShortfall) {
    List<TaskState> live = new ArrayList<>();
    for (TaskState candidate : anywhere) {
      if (isLive(candidate)) {
        live.add(candidate);
      }
    }
    return plan(task, node, live, capabilityShortfall);
  }

  private static boolean isLive(TaskState candidate) {
    return candidate.isAllocatedSinceEarlierCycle() && !candidate.job().isHeldBack();
  }

  private Plan plan(
      TaskState task, NodeState node, List<TaskState> live, long[] capabilityShortfall) {
    return plan(task, node, live, capabilityShortfall, null);
  }

  /**
   * @param already what victims chosen before free (the conflicting pods of {@link #planWith}), or
   *     null
   */
  private Plan plan(
      TaskState task,
      NodeState node,
      List<TaskState> live,
      long[] capabilityShortfall,
      Tally already) {
    Map<JobState, List<TaskState>> placed = new HashMap<>();
    Need need =
        new Need(
            task,
            node,
            remaining(nodeShortfall(task, node), already == null ? null : already.onNode),
            remaining(
                capabilityShortfall == null
                    ? new long[session.dimensions().size()]
                    : capabilityShortfall,
                already == null ? null : already.inQueue));
    if (live.isEmpty() || !canCover(need, live, placed)) {
      return null;
    }
    List<TaskState> workers = spareWorkers(live);
    List<TaskState> elastic =
        workers.isEmpty()
            ? List.of()
            : keepAllowed(workers, rules.allowedByPolicies(task, workers));
    Plan plan = cover(need, elastic, List.of(), placed);
    if (plan != null) {
      return plan;
    }
    Set<TaskState> offered = new LinkedHashSet<>(elastic);
    Set<JobState> jobs = new LinkedHashSet<>();
    for (TaskState candidate : live) {
      if (jobs.add(candidate.job())) {
        offered.addAll(placed(candidate.job(), placed));
      }
    }
    Set<TaskState> allowed = new HashSet<>(rules.allowedByPolicies(task, new ArrayList<>(offered)));
    List<TaskState> singles = elastic.stream().filter(allowed::contains).toList();
    List<JobState> wholeJobs =
        jobs.stream()
            .filter(job -> rules.mayEvictWhole(job) && allowed.containsAll(placed(job, placed)))
            .toList();
    return cover(need, singles, wholeJobs, placed);
  }

  private static long[] remaining(long[] needed, long[] freed) {
    if (freed == null) {
      return needed;
    }
    long[] left = needed.clone();
    for (int d = 0; d < left.length; d++) {
      left[d] = Math.max(0, left[d] - freed[d]);
    }
    return left;
  }

  private long[] nodeShortfall(TaskState task, NodeState node) {
    long[] shortfall = new long[session.dimensions().size()];
    for (int dimension : task.requestedDimensions()) {
      shortfall[dimension] = Math.max(0, task.request(dimension) - node.futureIdle(dimension));
    }
    return shortfall;
  }

  /**
   * The workers that may go one by one: per job, at most as many as it holds above its minimum,
   * last workers first. Anything else goes only with its whole job. The selector keeps this itself
   * rather than trusting the tiers, because the deciding tier of a configuration may not hold the
   * gang plugin.
   */
  private static List<TaskState> spareWorkers(List<TaskState> live) {
    Map<JobState, Integer> spare = new HashMap<>();
    List<TaskState> workers = new ArrayList<>();
    for (TaskState candidate : live) {
      if (candidate.isLeader()) {
        continue;
      }
      JobState job = candidate.job();
      int left =
          spare.computeIfAbsent(
              job, j -> j.placedWorkers() - Math.min(j.minimumWorkers(), j.workerCount()));
      if (left > 0) {
        workers.add(candidate);
        spare.put(job, left - 1);
      }
    }
    return workers;
  }

  /** Quick bound: even every job of a live candidate, taken whole, would not free enough. */
  private boolean canCover(Need need, List<TaskState> live, Map<JobState, List<TaskState>> placed) {
    Tally tally = new Tally(need);
    Set<JobState> jobs = new HashSet<>();
    for (TaskState candidate : live) {
      if (jobs.add(candidate.job())) {
        tally.add(placed(candidate.job(), placed), 1);
      }
    }
    return tally.covered();
  }

  private static List<TaskState> keepAllowed(List<TaskState> ordered, List<TaskState> allowed) {
    Set<TaskState> allowedSet = new HashSet<>(allowed);
    return ordered.stream().filter(allowedSet::contains).toList();
  }

  /**
   * Greedy in victim order, each victim taken only if it frees something still short and keeps the
   * limits of its queue; then victims the room turns out not to need are spared, latest first. Sums
   * are kept running, so a node with n candidates costs O(n) set and vector operations.
   */
  private Plan cover(
      Need need,
      List<TaskState> singles,
      List<JobState> wholeJobs,
      Map<JobState, List<TaskState>> placed) {
    Tally tally = new Tally(need);
    List<TaskState> chosenSingles = new ArrayList<>();
    Set<TaskState> chosen = new HashSet<>();
    List<JobState> chosenJobs = new ArrayList<>();
    for (TaskState single : singles) {
      if (tally.covered()) {
        break;
      }
      List<TaskState> one = List.of(single);
      if (tally.helps(one) && tally.keepsLimits(one)) {
        tally.add(one, 1);
        chosenSingles.add(single);
        chosen.add(single);
      }
    }
    for (JobState job : wholeJobs) {
      if (tally.covered()) {
        break;
      }
      List<TaskState> rest = new ArrayList<>();
      for (TaskState task : placed(job, placed)) {
        if (!chosen.contains(task)) {
          rest.add(task);
        }
      }
      if (tally.helps(rest) && tally.keepsLimits(rest)) {
        tally.add(rest, 1);
        chosenSingles.removeIf(single -> single.job() == job);
        chosenJobs.add(job);
      }
    }
    if (!tally.covered()) {
      return null;
    }
    for (int i = chosenJobs.size() - 1; i >= 0; i--) {
      List<TaskState> all = placed(chosenJobs.get(i), placed);
      tally.add(all, -1);
      if (tally.covered()) {
        chosenJobs.remove(i);
      } else {
        tally.add(all, 1);
      }
    }
    for (int i = chosenSingles.size() - 1; i >= 0; i--) {
      List<TaskState> one = List.of(chosenSingles.get(i));
      tally.add(one, -1);
      if (tally.covered()) {
        chosenSingles.remove(i);
      } else {
        tally.add(one, 1);
      }
    }
    return new Plan(need.node(), List.copyOf(chosenSingles), List.copyOf(chosenJobs));
  }

  private static List<TaskState> placed(JobState job, Map<JobState, List<TaskState>> cache) {
    return cache.computeIfAbsent(job, NodeVictimPlanner::placedTasks);
  }

  /**
   * What one plan must free: on its node, the pod's shortfall there; in the pod's queue, what takes
   * it above its capability (zero when there is no cap or room under it).
   */
  private record Need(
      TaskState task, NodeState node, long[] nodeShortfall, long[] capabilityShortfall) {
    QueueState queue() {
      return task.job().queue();
    }
  }

  /**
   * What the victims chosen so far free: on the plan's node, in the pod's queue, and per victim
   * queue.
   */
  private final class Tally {
    private final Need need;
    private final long[] onNode;
    private final long[] inQueue;
    private final Map<QueueState, long[]> byQueue = new HashMap<>();

    Tally(Need need) {
      this.need = need;
      this.onNode = new long[need.nodeShortfall().length];
      this.inQueue = new long[need.nodeShortfall().length];
    }

    boolean covered() {
      for (int d = 0; d < onNode.length; d++) {
        if (onNode[d] < need.nodeShortfall()[d] || inQueue[d] < need.capabilityShortfall()[d]) {
          return false;
        }
      }
      return true;
    }

    /**
     * True when some of the tasks frees a resource still short on the node or under the capability.
     */
    boolean helps(List<TaskState> tasks) {
      for (TaskState task : tasks) {
        boolean onTheNode = task.node() == need.node();
        boolean inTheQueue = task.job().queue() == need.queue();
        for (int d : task.requestedDimensions()) {
          if ((onTheNode && onNode[d] < need.nodeShortfall()[d])
              || (inTheQueue && inQueue[d] < need.capabilityShortfall()[d])) {
            return true;
          }
        }
      }
      return false;
    }

    /** True when the victims chosen so far plus these still keep every victim queue's limits. */
    boolean keepsLimits(List<TaskState> more) {
      Map<QueueState, long[]> after = new HashMap<>();
      byQueue.forEach((queue, freed) -> after.put(queue, freed.clone()));
      for (TaskState task : more) {
        NodeVictimPlanner.add(
            after.computeIfAbsent(task.job().queue(), queue -> new long[onNode.length]),
            task.request());
      }
      return rules.withinLimits(need.task(), after);
    }

    void add(List<TaskState> tasks, int sign) {
      for (TaskState task : tasks) {
        long[] sum = byQueue.computeIfAbsent(task.job().queue(), queue -> new long[onNode.length]);
        boolean onTheNode = task.node() == need.node();
        boolean inTheQueue = task.job().queue() == need.queue();
        for (int d : task.requestedDimensions()) {
          long amount = sign * task.request(d);
          sum[d] += amount;
          if (onTheNode) {
            onNode[d] += amount;
          }
          if (inTheQueue) {
            inQueue[d] += amount;
          }
        }
      }
    }
  }

  static void add(long[] into, long[] amount) {
    for (int d = 0; d < into.length; d++) {
      into[d] += amount[d];
    }
  }

  /** The job's tasks holding a place now (allocated or pipelined), in victim order. */
  static List<TaskState> placedTasks(JobState job) {
    List<TaskState> placed = new ArrayList<>();
    for (TaskState task : job.tasks()) {
      if (task.status().isPlaced()) {
        placed.add(task);
      }
    }
    placed.sort(TASK_ORDER);
    return placed;
  }
}
