package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.simulator.trace.OpenbTrace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The FGD paper's experiment replayed through the scheduler's core: workload inflation with no
 * departures. Every pod of the sequence is one job in one session; in the sequence's order each is
 * offered once to the core's node search — the predicates and node scores the configuration's tiers
 * register, the same code a cycle's allocate runs, over every node — and placed where it finds the
 * best node; a pod that fits nowhere is not tried again. A node's GPU model is a label, and a pod's
 * allowed models a required node affinity on it, so the model rule is the predicates plugin's.
 * Nodes are listed in the order ties go (the sequence's tie ranks): the search keeps the first of
 * equal scores.
 *
 * <p>The measure is the GPU allocation ratio (milli-GPU placed / capacity) each time the GPUs the
 * pods have asked for, placed or not, pass one of {@link #ARRIVED_PERCENT} of the capacity.
 */
public final class OpenbReplay {

  /** The node label carrying the GPU model (NVIDIA GPU feature discovery's). */
  public static final String GPU_MODEL_LABEL = "nvidia.com/gpu.product";

  /** The arrived shares of the published curves. */
  public static final int[] ARRIVED_PERCENT = {50, 75, 90, 95, 100, 110, 120, 130};

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long MIB = 1024L * 1024L;

  /** The allocation ratio, in percent, at each of {@link #ARRIVED_PERCENT}. */
  public record Curve(double[] allocatedPercent, int placed, int pods) {

    public double at(int arrivedPercent) {
      for (int i = 0; i < ARRIVED_PERCENT.length; i++) {
        if (ARRIVED_PERCENT[i] == arrivedPercent) {
          return allocatedPercent[i];
        }
      }
      throw new IllegalArgumentException("no point at " + arrivedPercent + "% arrived");
    }
  }

  private OpenbReplay() {}

  /**
   * Replays {@code pods} in order on {@code nodes}, ties going to the smallest {@code tieRanks}
   * (nodes without a rank after those with one, in the list's order).
   */
  public static Curve replay(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      List<OpenbTrace.Node> nodes,
      Map<String, Integer> tieRanks,
      List<OpenbTrace.Pod> pods) {
    List<OpenbTrace.Node> ordered = new ArrayList<>(nodes);
    ordered.sort(Comparator.comparingInt(node -> tieRanks.getOrDefault(node.name(), 1 << 30)));
    long capacityMilli = 0;
    List<NodeInfo> nodeInfos = new ArrayList<>();
    for (OpenbTrace.Node node : ordered) {
      capacityMilli += node.gpus() * 1000L;
      nodeInfos.add(nodeInfo(node));
    }
    List<JobInfo> jobs = new ArrayList<>(pods.size());
    Map<List<String>, PlacementConstraints> constraintsByModels = new HashMap<>();
    for (int i = 0; i < pods.size(); i++) {
      jobs.add(job(i, pods.get(i), constraintsByModels));
    }
    Session session =
        scheduler.openSession(new Snapshot(nodeInfos, jobs, List.of()), configuration, T0);
    NodeSearch search = session.nodeSearch();
    List<JobState> sessionJobs = session.jobs();

    double[] allocated = new double[ARRIVED_PERCENT.length];
    int point = 0;
    long arrivedMilli = 0;
    long allocatedMilli = 0;
    int placed = 0;
    for (int i = 0; i < pods.size() && point < ARRIVED_PERCENT.length; i++) {
      OpenbTrace.Pod pod = pods.get(i);
      // The point is read before the pod that takes the arrived GPUs past it.
      while (point < ARRIVED_PERCENT.length
          && (arrivedMilli + pod.gpuMilli()) * 100 > capacityMilli * ARRIVED_PERCENT[point]) {
        allocated[point++] = 100.0 * allocatedMilli / capacityMilli;
      }
      arrivedMilli += pod.gpuMilli();
      TaskState task = sessionJobs.get(i).tasks().get(0);
      NodeSearch.Result best = search.findBest(task, 100, 0);
      if (best.found()) {
        Statement statement = session.newStatement();
        statement.allocate(task, best.node());
        statement.commit();
        allocatedMilli += pod.gpuMilli();
        placed++;
      }
    }
    while (point < ARRIVED_PERCENT.length) {
      allocated[point++] = 100.0 * allocatedMilli / capacityMilli;
    }
    return new Curve(allocated, placed, pods.size());
  }

  private static NodeInfo nodeInfo(OpenbTrace.Node node) {
    Map<String, String> labels = new TreeMap<>();
    if (node.gpus() > 0 && !node.model().isBlank()) {
      labels.put(GPU_MODEL_LABEL, node.model());
    }
    Map<String, Long> allocatable = new TreeMap<>();
    allocatable.put(Resource.CPU, node.milliCpu());
    allocatable.put(Resource.MEMORY, node.memoryMib() * MIB);
    allocatable.put(Resource.GPU, node.gpus() * 1000L);
    return new NodeInfo(
        node.name(),
        labels,
        List.of(),
        Resource.ofCanonical(allocatable),
        Resource.EMPTY,
        Resource.EMPTY,
        true,
        false,
        0);
  }

  private static JobInfo job(
      int order, OpenbTrace.Pod pod, Map<List<String>, PlacementConstraints> constraintsByModels) {
    Map<String, Long> request = new TreeMap<>();
    request.put(Resource.CPU, pod.milliCpu());
    request.put(Resource.MEMORY, pod.memoryMib() * MIB);
    request.put(Resource.GPU, pod.gpuMilli());
    PlacementConstraints constraints =
        pod.gpus() == 0 || pod.gpuModels().isEmpty()
            ? PlacementConstraints.NONE
            : constraintsByModels.computeIfAbsent(
                pod.gpuModels(),
                models ->
                    new PlacementConstraints(
                        Map.of(),
                        List.of(
                            NodeAffinityTerm.of(
                                NodeSelectorRequirement.of(
                                    GPU_MODEL_LABEL,
                                    NodeSelectorOperator.IN,
                                    models.toArray(String[]::new)))),
                        List.of()));
    String name = "p" + order;
    TaskInfo task =
        TaskInfo.leader(name, "pod", Resource.ofCanonical(request)).withConstraints(constraints);
    return JobInfo.builder("openb", name)
        .creationTime(T0.plusMillis(order))
        .minWorkersNum(0)
        .tasks(List.of(task))
        .build();
  }
}
