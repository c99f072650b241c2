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
 * <p>The score of a placement is the growth it causes, in steps of {@value #GRAIN_MILLI_GPU}
 * milli-GPU, negated, at {@value #POINTS_PER_GRAIN} points a step, so that it outweighs the 0–100
 * node orders, which choose among nodes within one step: a node where the pod grows fragmentation
 * less wins. A cpu-only pod is scored too, since eating the cpu of a GPU node strands its GPUs.
 */
final class GpuFragmentation {

  /**
   * The growth in expected fragmentation is counted in steps of this many milli-GPU: placements
   * closer than a step are equal for this measure, and the node order's other criteria (or the node
   * list's order) choose among them. Exact growth ranks nodes by differences no forecast of the mix
   * is accurate to; in the openb replay a step of 1/8 GPU places more than exact growth.
   */
  static final double GRAIN_MILLI_GPU = 125;

  /** Score points per step of growth: a step outweighs the 0–100 node orders. */
  static final double POINTS_PER_GRAIN = 100;

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

  /**
   * A node's state as the measure sees it. Written out rather than a record: a record's equals goes
   * through a method handle, and this one is compared on every score.
   */
  private static final class StateKey {
    private final int admission;
    private final long cpuFree;
    private final long low;
    private final long high;
    private final int hash;

    StateKey(int admission, long cpuFree, long low, long high) {
      this.admission = admission;
      this.cpuFree = cpuFree;
      this.low = low;
      this.high = high;
      long mixed = ((admission * 31L + cpuFree) * 31L + low) * 31L + high;
      this.hash = Long.hashCode(mixed ^ (mixed >>> 29));
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof StateKey key
          && key.low == low
          && key.cpuFree == cpuFree
          && key.high == high
          && key.admission == admission;
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static final int MEMO_LIMIT = 1 << 20;

  /** Scores kept per node, one per pod shape (GPU and cpu request), the oldest replaced first. */
  private static final int SHAPES_KEPT = 4;

  private final Session session;
  private final int gpuDimension;
  private final Map<PlacementConstraints, Integer> constraintsIndex;
  private final boolean[][] admitsByPattern;
  private final int[] admissionOfNode;
  private final Map<StateKey, Double> memo = new HashMap<>();
  private final double[] beforeOfNode;
  private final long[] beforeTakenAtChanges;
  private final double[] scored;
  private final long[] scoredAtChanges;
  private final long[] scoredMilli;
  private final long[] scoredCpu;
  private final byte[] nextSlot;
  private long totalPods;
  private Admission[] admissions;
  private boolean mixMeasured;

  private GpuFragmentation(
      Session session,
      int gpuDimension,
      Map<PlacementConstraints, Integer> constraintsIndex,
      boolean[][] admitsByPattern,
      int[] admissionOfNode) {
    this.session = session;
    this.gpuDimension = gpuDimension;
    this.constraintsIndex = constraintsIndex;
    this.admitsByPattern = admitsByPattern;
    this.admissionOfNode = admissionOfNode;
    this.beforeOfNode = new double[admissionOfNode.length];
    this.beforeTakenAtChanges = new long[admissionOfNode.length];
    this.scored = new double[admissionOfNode.length * SHAPES_KEPT];
    this.scoredAtChanges = new long[admissionOfNode.length * SHAPES_KEPT];
    this.scoredMilli = new long[admissionOfNode.length * SHAPES_KEPT];
    this.scoredCpu = new long[admissionOfNode.length * SHAPES_KEPT];
    this.nextSlot = new byte[admissionOfNode.length];
  }

  /**
   * The session's mix of pod shapes, or null when there is nothing to measure: no node has GPU
   * devices, or no pod of the session asks a share of one. With whole GPUs only, a device is either
   * free or taken, and keeping whole nodes for the pods that need them is LeaderFirst's and
   * BinPack's part; measuring the mix there cost the 5,000-node cycle about 750 ms for nothing.
   */
  static GpuFragmentation of(Session session, int gpuDimension) {
    if (gpuDimension < 0
        || session.nodes().stream().noneMatch(node -> node.gpuDevices() != null)
        || !anyShareAsked(session, gpuDimension)) {
      return null;
    }
    // Distinct constraints by identity (a worker set shares one), with a task standing for each.
    Map<PlacementConstraints, Integer> constraintsIndex = new IdentityHashMap<>();
    List<TaskState> representatives = new ArrayList<>();
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        PlacementConstraints constraints = task.info().constraints();
        if (!constraintsIndex.containsKey(constraints)) {
          constraintsIndex.put(constraints, representatives.size());
          representatives.add(task);
        }
      }
    }
    // Nodes alike by which constraints admit them share one view of the mix.
    NodeSearch search = session.nodeSearch();
    Map<String, Integer> patternIndex = new HashMap<>();
    List<boolean[]> patterns = new ArrayList<>();
    int[] admissionOfNode = new int[session.nodes().size()];
    for (NodeState node : session.nodes()) {
      boolean[] admits = new boolean[representatives.size()];
      StringBuilder pattern = new StringBuilder();
      for (int c = 0; c < admits.length; c++) {
        admits[c] = search.admits(representatives.get(c), node).fits();
        pattern.append(admits[c] ? '1' : '0');
      }
      admissionOfNode[node.index()] =
          patternIndex.computeIfAbsent(
              pattern.toString(),
              p -> {
                patterns.add(admits);
                return patterns.size() - 1;
              });
    }
    GpuFragmentation fragmentation =
        new GpuFragmentation(
            session,
            gpuDimension,
            constraintsIndex,
            patterns.toArray(boolean[][]::new),
            admissionOfNode);
    return fragmentation;
  }

  private static boolean anyShareAsked(Session session, int gpuDimension) {
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.request(gpuDimension) % GpuDevices.WHOLE != 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Counts the mix — every pod of the session, placed or pending, by shape and by the constraints
   * that place it — at the first score, not when the session opens: which nodes admit a shape is
   * the static filters' answer, and every plugin's filters are registered only once all are open.
   * No score is kept before it.
   */
  private void measureMix() {
    List<TreeMap<Long, TreeMap<Long, Long>>> shapes = new ArrayList<>();
    for (int c = 0; c < constraintsIndex.size(); c++) {
      shapes.add(new TreeMap<>());
    }
    long total = 0;
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        Integer index = constraintsIndex.get(task.info().constraints());
        if (index == null) {
          continue;
        }
        shapes
            .get(index)
            .computeIfAbsent(task.request(gpuDimension), g -> new TreeMap<>())
            .merge(task.request(ResourceDimensions.CPU), 1L, Long::sum);
        total++;
      }
    }
    totalPods = Math.max(1, total);
    admissions = new Admission[admitsByPattern.length];
    for (int p = 0; p < admitsByPattern.length; p++) {
      admissions[p] = admission(shapes, admitsByPattern[p], total);
    }
    Arrays.fill(beforeTakenAtChanges, -1);
    Arrays.fill(scoredAtChanges, -1);
    mixMeasured = true;
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
   * The node score for placing the task: {@value #POINTS_PER_GRAIN} points for every whole step of
   * {@value #GRAIN_MILLI_GPU} milli-GPU of expected fragmentation the placement adds, negated (0
   * when it adds less than a step; positive when it removes some).
   */
  double score(TaskState task, NodeState node) {
    if (!mixMeasured) {
      measureMix();
    }
    GpuDevices devices = node.gpuDevices();
    if (devices == null || devices.count() == 0) {
      return 0;
    }
    // Pods are scored one after another against nodes of which only the one the last pod went to
    // has changed, and a job's pods come in few shapes: the score of a shape on an unchanged node
    // is kept, a few shapes a node.
    int n = node.index();
    long changes = node.changes();
    long milli = task.request(gpuDimension);
    long cpu = task.request(ResourceDimensions.CPU);
    int first = n * SHAPES_KEPT;
    for (int slot = first; slot < first + SHAPES_KEPT; slot++) {
      if (scoredAtChanges[slot] == changes
          && scoredMilli[slot] == milli
          && scoredCpu[slot] == cpu) {
        return scored[slot];
      }
    }
    double value = measureScore(node, devices, changes, milli, cpu);
    int slot = first + nextSlot[n];
    nextSlot[n] = (byte) ((nextSlot[n] + 1) % SHAPES_KEPT);
    scoredAtChanges[slot] = changes;
    scoredMilli[slot] = milli;
    scoredCpu[slot] = cpu;
    scored[slot] = value;
    return value;
  }

  private double measureScore(
      NodeState node, GpuDevices devices, long changes, long milli, long cpu) {
    long[] free = devices.freeNowByDevice();
    long cpuFree = node.idle(ResourceDimensions.CPU);
    double before;
    if (beforeTakenAtChanges[node.index()] == changes) {
      before = beforeOfNode[node.index()];
    } else {
      before = expected(node, free, cpuFree);
      beforeOfNode[node.index()] = before;
      beforeTakenAtChanges[node.index()] = changes;
    }
    if (milli > 0) {
      int[] chosen = devices.choose(milli, false);
      if (chosen == null) {
        return 0;
      }
      for (int d : chosen) {
        free[d] -= GpuDevices.sharePerDevice(milli);
      }
    }
    double growth = expected(node, free, cpuFree - cpu) - before;
    return -Math.floor(growth / GRAIN_MILLI_GPU) * POINTS_PER_GRAIN;
  }

  /** The node's expected fragmented milli-GPU for the mix, with these devices free and this cpu. */
  double expected(NodeState node, long[] free, long cpuFree) {
    if (!mixMeasured) {
      measureMix();
    }
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
      if (fitting == 0) {
        continue;
      }
      if (group.gpuMilli == 0) {
        // A cpu-only pod uses no GPU: to it every free GPU is idle (FGD counts it so too).
        fragmented += (double) fitting * allFree;
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
