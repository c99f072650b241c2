package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.framework.GpuDevices;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How much GPU a node leaves unusable to the workload's pods: the measure of fragmentation the FGD
 * paper ("Beware of Fragmentation", USENIX ATC'23) defines, and the node score that keeps it from
 * growing.
 *
 * <p>For one pod shape {@code m} (its GPU request and cpu) on node {@code n}, the fragmented GPU is
 * every free milli-GPU of the node when {@code m} cannot go there at all (the node's labels or
 * taints turn it away, its cpu is short, or no device has room), else the free milli-GPU on devices
 * {@code m} cannot use: those with less free than a share asks, or the partly used ones for a pod
 * of whole GPUs. A cpu-only pod that fits leaves none. The node's expected fragmentation is the
 * average over the workload's <em>mix</em> of shapes, weighted by how many pods have each shape.
 *
 * <p>The mix is what the scheduler sees in the session — every pod placed and every pod pending —
 * not a trace or a configured guess: the pods waiting now are the best forecast of the next ones.
 *
 * <p>The score of a placement is the growth it causes, negated and scaled to {@value
 * #POINTS_PER_GPU} points per GPU of expected fragmentation, so it adds to the 0–100 node orders: a
 * node where the pod grows fragmentation less wins. A cpu-only pod is scored too, since eating the
 * cpu of a GPU node strands its GPUs.
 */
final class GpuFragmentation {

  /** Score points per whole GPU of expected fragmentation growth. */
  static final double POINTS_PER_GPU = 100;

  /** One GPU request with the cpu requests (and their pod counts) of the pods asking it. */
  private static final class Group {
    final long gpuMilli;
    final long[] cpu;
    final long[] podsAtOrBelow;
    final long pods;

    Group(long gpuMilli, TreeMap<Long, Long> podsByCpu) {
      this.gpuMilli = gpuMilli;
      this.cpu = new long[podsByCpu.size()];
      this.podsAtOrBelow = new long[podsByCpu.size()];
      int i = 0;
      long running = 0;
      for (Map.Entry<Long, Long> entry : podsByCpu.entrySet()) {
        running += entry.getValue();
        cpu[i] = entry.getKey();
        podsAtOrBelow[i] = running;
        i++;
      }
      this.pods = running;
    }

    /** Pods of this group asking more cpu than {@code cpuFree}. */
    long podsShortOfCpu(long cpuFree) {
      int at = Arrays.binarySearch(cpu, cpuFree);
      int lastFitting = at >= 0 ? at : -at - 2;
      return pods - (lastFitting < 0 ? 0 : podsAtOrBelow[lastFitting]);
    }
  }

  /** The mix as one kind of node sees it: the groups it admits, and the pods it turns away. */
  private record Admission(Group[] groups, long podsTurnedAway) {}

  private record StateKey(int admission, long cpuFree, long low, long high) {}

  private static final int MEMO_LIMIT = 1 << 20;

  private final int gpuDimension;
  private final long totalPods;
  private final Admission[] admissions;
  private final int[] admissionOfNode;
  private final Map<StateKey, Double> memo = new HashMap<>();

  private GpuFragmentation(
      int gpuDimension, long totalPods, Admission[] admissions, int[] admissionOfNode) {
    this.gpuDimension = gpuDimension;
    this.totalPods = totalPods;
    this.admissions = admissions;
    this.admissionOfNode = admissionOfNode;
  }

  /**
   * The session's mix of pod shapes, or null when there is nothing to measure (no node has GPU
   * devices, or no pod is in the session).
   */
  static GpuFragmentation of(Session session, int gpuDimension) {
    if (gpuDimension < 0 || session.nodes().stream().noneMatch(node -> node.gpuDevices() != null)) {
      return null;
    }
    // Per distinct constraints (by identity: a worker set shares one), GPU request → cpu → pods.
    Map<PlacementConstraints, Integer> constraintsIndex = new IdentityHashMap<>();
    List<TaskState> representatives = new ArrayList<>();
    List<TreeMap<Long, TreeMap<Long, Long>>> shapes = new ArrayList<>();
    long total = 0;
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        PlacementConstraints constraints = task.info().constraints();
        Integer index = constraintsIndex.get(constraints);
        if (index == null) {
          index = representatives.size();
          constraintsIndex.put(constraints, index);
          representatives.add(task);
          shapes.add(new TreeMap<>());
        }
        shapes
            .get(index)
            .computeIfAbsent(task.request(gpuDimension), g -> new TreeMap<>())
            .merge(task.request(ResourceDimensions.CPU), 1L, Long::sum);
        total++;
      }
    }
    if (total == 0) {
      return null;
    }
    // Nodes alike by which constraints admit them share one view of the mix.
    NodeSearch search = session.nodeSearch();
    Map<String, Integer> admissionByPattern = new HashMap<>();
    List<Admission> admissions = new ArrayList<>();
    int[] admissionOfNode = new int[session.nodes().size()];
    for (NodeState node : session.nodes()) {
      boolean[] admits = new boolean[representatives.size()];
      StringBuilder pattern = new StringBuilder();
      for (int c = 0; c < admits.length; c++) {
        admits[c] = search.admits(representatives.get(c), node).fits();
        pattern.append(admits[c] ? '1' : '0');
      }
      long finalTotal = total;
      admissionOfNode[node.index()] =
          admissionByPattern.computeIfAbsent(
              pattern.toString(),
              p -> {
                admissions.add(admission(shapes, admits, finalTotal));
                return admissions.size() - 1;
              });
    }
    return new GpuFragmentation(
        gpuDimension, total, admissions.toArray(Admission[]::new), admissionOfNode);
  }

  private static Admission admission(
      List<TreeMap<Long, TreeMap<Long, Long>>> shapes, boolean[] admits, long total) {
    TreeMap<Long, TreeMap<Long, Long>> merged = new TreeMap<>();
    long admitted = 0;
    for (int c = 0; c < admits.length; c++) {
      if (!admits[c]) {
        continue;
      }
      for (Map.Entry<Long, TreeMap<Long, Long>> byGpu : shapes.get(c).entrySet()) {
        TreeMap<Long, Long> cpu = merged.computeIfAbsent(byGpu.getKey(), g -> new TreeMap<>());
        for (Map.Entry<Long, Long> entry : byGpu.getValue().entrySet()) {
          cpu.merge(entry.getKey(), entry.getValue(), Long::sum);
          admitted += entry.getValue();
        }
      }
    }
    Group[] groups =
        merged.entrySet().stream()
            .map(entry -> new Group(entry.getKey(), entry.getValue()))
            .toArray(Group[]::new);
    return new Admission(groups, total - admitted);
  }

  /**
   * The node score for placing the task: {@value #POINTS_PER_GPU} × the GPUs of expected
   * fragmentation the placement adds, negated (0 when it adds none; positive when it removes some).
   */
  double score(TaskState task, NodeState node) {
    GpuDevices devices = node.gpuDevices();
    if (devices == null || devices.count() == 0) {
      return 0;
    }
    long[] free = devices.freeNowByDevice();
    long cpuFree = node.idle(ResourceDimensions.CPU);
    double before = expected(node, free, cpuFree);
    long milli = task.request(gpuDimension);
    if (milli > 0) {
      int[] chosen = devices.choose(milli, false);
      if (chosen == null) {
        return 0;
      }
      for (int d : chosen) {
        free[d] -= GpuDevices.isFraction(milli) ? milli : GpuDevices.WHOLE;
      }
    }
    double after = expected(node, free, cpuFree - task.request(ResourceDimensions.CPU));
    return -(after - before) * POINTS_PER_GPU / GpuDevices.WHOLE;
  }

  /** The node's expected fragmented milli-GPU for the mix, with these devices free and this cpu. */
  double expected(NodeState node, long[] free, long cpuFree) {
    int admission = admissionOfNode[node.index()];
    long[] sorted = free.clone();
    Arrays.sort(sorted);
    StateKey key = key(admission, cpuFree, sorted);
    if (key != null) {
      Double known = memo.get(key);
      if (known != null) {
        return known;
      }
    }
    double value = measure(admissions[admission], sorted, cpuFree);
    if (key != null) {
      if (memo.size() >= MEMO_LIMIT) {
        memo.clear();
      }
      memo.put(key, value);
    }
    return value;
  }

  /** Exact for up to 12 devices of at most 1000m free each (10 bits a device); else not kept. */
  private static StateKey key(int admission, long cpuFree, long[] sorted) {
    if (sorted.length > 12) {
      return null;
    }
    long low = 0;
    long high = 0;
    for (int d = 0; d < sorted.length; d++) {
      long value = Math.max(0, sorted[d]) & 0x7FF;
      if (d < 6) {
        low |= value << (11 * d);
      } else {
        high |= value << (11 * (d - 6));
      }
    }
    return new StateKey(admission, cpuFree, low | ((long) sorted.length << 60), high);
  }

  private double measure(Admission admission, long[] sortedFree, long cpuFree) {
    long allFree = 0;
    long wholeFree = 0;
    long partlyFree = 0;
    for (long free : sortedFree) {
      if (free > 0) {
        allFree += free;
        if (free == GpuDevices.WHOLE) {
          wholeFree++;
        } else {
          partlyFree += free;
        }
      }
    }
    if (allFree == 0) {
      return 0;
    }
    long largest = sortedFree[sortedFree.length - 1];
    double fragmented = (double) admission.podsTurnedAway() * allFree;
    for (Group group : admission.groups()) {
      long shortOfCpu = cpuFree < 0 ? group.pods : group.podsShortOfCpu(cpuFree);
      fragmented += (double) shortOfCpu * allFree;
      long fitting = group.pods - shortOfCpu;
      if (fitting == 0 || group.gpuMilli == 0) {
        continue;
      }
      long unusable;
      if (GpuDevices.isFraction(group.gpuMilli)) {
        if (largest < group.gpuMilli) {
          unusable = allFree;
        } else {
          unusable = 0;
          for (long free : sortedFree) {
            if (free >= group.gpuMilli) {
              break;
            }
            unusable += Math.max(0, free);
          }
        }
      } else {
        unusable = wholeFree >= group.gpuMilli / GpuDevices.WHOLE ? partlyFree : allFree;
      }
      fragmented += (double) fitting * unusable;
    }
    return fragmented / totalPods;
  }
}
