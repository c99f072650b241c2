package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
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
 * Finds the cheapest victims on one node for one pod, for the {@link VictimSelector}: first elastic
 * workers alone (only those above their job's minimum), then, if they cannot make room, whole jobs as
 * well — a job only if the tiers allow every pod it holds. Victims are taken greedily in victim order,
 * each only if it frees something still short, and any the room turns out not to need is spared.
 */
final class NodeVictimPlanner {

  /** Victims evict lowest priority first, then the youngest (least work lost), then by key. */
  static final Comparator<JobState> VICTIM_ORDER = Comparator.<JobState>comparingInt(job -> job.info().priority())
      .thenComparing(job -> job.info().creationTime(), Comparator.reverseOrder())
      .thenComparing(JobState::key);

  /** Within a job, the last workers go first and the leader last. */
  static final Comparator<TaskState> TASK_ORDER = Comparator.comparing(TaskState::isLeader)
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

    /** Fewer broken gangs first, then the lowest highest-priority victim (as kube-scheduler), then fewer pods. */
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

  /** The cheapest victims on the node for the pod, elastic workers before whole jobs; null if none suffice. */
  Plan planOn(TaskState task, NodeState node, List<TaskState> onNode) {
    int size = session.dimensions().size();
    long[] shortfall = new long[size];
    for (int dimension : task.requestedDimensions()) {
      shortfall[dimension] = Math.max(0, task.request(dimension) - node.futureIdle(dimension));
    }
    List<TaskState> live = new ArrayList<>();
    for (TaskState candidate : onNode) {
      if (candidate.isAllocatedSinceEarlierCycle() && candidate.node() == node && !candidate.job().isHeldBack()) {
        live.add(candidate);
      }
    }
    if (live.isEmpty() || !canCover(shortfall, live, node)) {
      return null;
    }
    List<TaskState> workers = spareWorkers(live);
    List<TaskState> elastic = workers.isEmpty() ? List.of() : keepAllowed(workers, rules.allowedByPolicies(task, workers));
    Plan plan = cover(node, shortfall, elastic, List.of());
    if (plan != null) {
      return plan;
    }
    LinkedHashSet<TaskState> offered = new LinkedHashSet<>(elastic);
    List<JobState> jobsOnNode = new ArrayList<>();
    for (TaskState candidate : live) {
      if (!jobsOnNode.contains(candidate.job())) {
        jobsOnNode.add(candidate.job());
        offered.addAll(placedTasks(candidate.job()));
      }
    }
    Set<TaskState> allowed = new HashSet<>(rules.allowedByPolicies(task, new ArrayList<>(offered)));
    List<TaskState> singles = elastic.stream().filter(allowed::contains).toList();
    List<JobState> wholeJobs = jobsOnNode.stream().filter(job -> allowed.containsAll(placedTasks(job))).toList();
    return cover(node, shortfall, singles, wholeJobs);
  }

  /**
   * The workers that may go one by one: per job, at most as many as it holds above its minimum, last
   * workers first. Anything else goes only with its whole job. The selector keeps this itself rather
   * than trusting the tiers, because a tier that allows no victim hands the choice to the next one,
   * which may not know about gangs.
   */
  private static List<TaskState> spareWorkers(List<TaskState> live) {
    Map<JobState, Integer> spare = new HashMap<>();
    List<TaskState> workers = new ArrayList<>();
    for (TaskState candidate : live) {
      if (candidate.isLeader()) {
        continue;
      }
      JobState job = candidate.job();
      int left = spare.computeIfAbsent(job, j -> j.placedWorkers() - Math.min(j.minimumWorkers(), j.workerCount()));
      if (left > 0) {
        workers.add(candidate);
        spare.put(job, left - 1);
      }
    }
    return workers;
  }

  /** Quick bound: even every live candidate on the node would not free enough. */
  private boolean canCover(long[] shortfall, List<TaskState> live, NodeState node) {
    long[] freed = new long[shortfall.length];
    for (TaskState candidate : live) {
      add(freed, candidate.request());
    }
    Set<JobState> jobs = new HashSet<>();
    live.forEach(candidate -> jobs.add(candidate.job()));
    for (JobState job : jobs) {
      for (TaskState task : placedTasks(job)) {
        if (task.node() == node && !task.isAllocatedSinceEarlierCycle()) {
          add(freed, task.request());
        }
      }
    }
    return covers(freed, shortfall);
  }

  private static List<TaskState> keepAllowed(List<TaskState> ordered, List<TaskState> allowed) {
    Set<TaskState> allowedSet = new HashSet<>(allowed);
    return ordered.stream().filter(allowedSet::contains).toList();
  }

  /** Greedy in victim order, each victim taken only if it frees something still short; then unneeded ones are spared. */
  private Plan cover(NodeState node, long[] shortfall, List<TaskState> singles, List<JobState> wholeJobs) {
    List<TaskState> chosenSingles = new ArrayList<>();
    List<JobState> chosenJobs = new ArrayList<>();
    for (TaskState single : singles) {
      if (covers(freedOn(node, chosenSingles, chosenJobs), shortfall)) {
        break;
      }
      if (helps(single.request(), freedOn(node, chosenSingles, chosenJobs), shortfall)
          && withinLimits(chosenSingles, chosenJobs, List.of(single))) {
        chosenSingles.add(single);
      }
    }
    for (JobState job : wholeJobs) {
      if (covers(freedOn(node, chosenSingles, chosenJobs), shortfall)) {
        break;
      }
      long[] jobOnNode = new long[shortfall.length];
      for (TaskState task : placedTasks(job)) {
        if (task.node() == node && !chosenSingles.contains(task)) {
          add(jobOnNode, task.request());
        }
      }
      if (helps(jobOnNode, freedOn(node, chosenSingles, chosenJobs), shortfall)
          && withinLimits(chosenSingles, chosenJobs, placedTasks(job))) {
        chosenSingles.removeIf(single -> single.job() == job);
        chosenJobs.add(job);
      }
    }
    if (!covers(freedOn(node, chosenSingles, chosenJobs), shortfall)) {
      return null;
    }
    for (int i = chosenJobs.size() - 1; i >= 0; i--) {
      JobState spared = chosenJobs.remove(i);
      if (!covers(freedOn(node, chosenSingles, chosenJobs), shortfall)) {
        chosenJobs.add(i, spared);
      }
    }
    for (int i = chosenSingles.size() - 1; i >= 0; i--) {
      TaskState spared = chosenSingles.remove(i);
      if (!covers(freedOn(node, chosenSingles, chosenJobs), shortfall)) {
        chosenSingles.add(i, spared);
      }
    }
    return new Plan(node, List.copyOf(chosenSingles), List.copyOf(chosenJobs));
  }

  private boolean withinLimits(List<TaskState> singles, List<JobState> jobs, List<TaskState> more) {
    List<TaskState> all = new ArrayList<>(singles);
    jobs.forEach(job -> all.addAll(placedTasks(job)));
    for (TaskState task : more) {
      if (!all.contains(task)) {
        all.add(task);
      }
    }
    return rules.withinLimits(all);
  }

  private long[] freedOn(NodeState node, List<TaskState> singles, List<JobState> jobs) {
    long[] freed = new long[session.dimensions().size()];
    for (TaskState single : singles) {
      add(freed, single.request());
    }
    for (JobState job : jobs) {
      for (TaskState task : placedTasks(job)) {
        if (task.node() == node) {
          add(freed, task.request());
        }
      }
    }
    return freed;
  }

  private static boolean helps(long[] amount, long[] freed, long[] shortfall) {
    for (int d = 0; d < shortfall.length; d++) {
      if (amount[d] > 0 && freed[d] < shortfall[d]) {
        return true;
      }
    }
    return false;
  }

  private static boolean covers(long[] freed, long[] shortfall) {
    for (int d = 0; d < shortfall.length; d++) {
      if (freed[d] < shortfall[d]) {
        return false;
      }
    }
    return true;
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
