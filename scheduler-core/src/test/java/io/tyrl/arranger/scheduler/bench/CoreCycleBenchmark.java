package io.tyrl.arranger.scheduler.bench;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Full scheduling cycles on synthetic clusters (not a test). Two suites, each meant for its own JVM
 * so that its heap cap is the target's:
 *
 * <ul>
 *   <li>{@code standard} (-Xmx1g): 500, 1,000 and 5,000 nodes of 64 cpu / 512Gi / 8 GPUs, 2,000
 *       pending jobs of a leader + 9 workers (minimum 4, the rest elastic, placed one at a time) in
 *       3 queues, all six basic policies, some NonStrict gangs, a tainted GPU pool; then Strict
 *       gangs that cannot fit: 1,000 nodes with room for 255 one-GPU workers, 200 jobs of a leader
 *       + 256 workers, all needed (actions allocate and backfill only: enqueue would admit just the
 *       gangs the cluster's total holds). Prints a table and the lines {@code core-cycle nodes=5000
 *       pods=20000 ms=<median> heapMiB=<peak>} and {@code core-cycle-gang nodes=1000 jobs=200
 *       pods-per-job=257 ms=<median>};
 *   <li>{@code large} (-Xmx2g): 20,000 nodes and 10,000 such jobs, printing {@code core-cycle
 *       nodes=20000 pods=100000 ms=<median> heapMiB=<peak>}.
 * </ul>
 *
 * Medians of several runs after warm-up; peak heap from the heap pools' peak usage, reset per size.
 *
 * <p>Run with {@code scripts/bench-core.sh}, or {@code java -cp <classes:test-classes:snakeyaml>
 * io.tyrl.arranger.scheduler.bench.CoreCycleBenchmark standard|large [warmups] [runs]}; for
 * profiling and A/B runs, {@code flat}, {@code topology} and {@code gpushare} run one 5,000-node
 * row of the standard suite alone.
 */
public final class CoreCycleBenchmark {

  private static final int JOBS = 2000;
  private static final int LARGE_JOBS = 10_000;
  private static final int WORKERS_PER_JOB = 9;

  /** Workers of each job asking a quarter of a GPU in the GPU-sharing row: half of all pods. */
  private static final int SHARED_WORKERS = 5;

  private static final int GANG_NODES = 1000;
  private static final int GANG_JOBS = 200;
  private static final int GANG_WORKERS = 256;
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  private CoreCycleBenchmark() {}

  /** One measured size: the median cycle and what it placed. */
  private record Measurement(
      long medianMillis,
      long minMillis,
      long maxMillis,
      long medianCpuMillis,
      int podsPlaced,
      int jobsPlaced,
      long peakHeapMiB) {}

  /** The flat suite's jobs on 5,000 nodes with 5 of each job's 9 actors asking 250m of a GPU. */
  private static Measurement gpuShareRow(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      List<QueueInfo> queues,
      int warmups,
      int runs) {
    return measureRow(
        scheduler,
        configuration,
        new Snapshot(nodes(5000), jobs(JOBS, SHARED_WORKERS), queues),
        JOBS * (WORKERS_PER_JOB + 1),
        warmups,
        runs);
  }

  /** The flat suite's jobs on 5,000 labelled nodes, 2 in 3 of them asking a rack or a block. */
  private static Measurement topologyRow(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      List<JobInfo> jobs,
      List<QueueInfo> queues,
      int warmups,
      int runs) {
    return measureRow(
        scheduler,
        configuration.withTopologyLevels(new TopologyLevels(TOPOLOGY_LEVELS)),
        new Snapshot(withTopologyLabels(nodes(5000)), withTopology(jobs), queues),
        JOBS * (WORKERS_PER_JOB + 1),
        warmups,
        runs);
  }

  private static void printTopology(Measurement topology) {
    System.out.println(
        "core-cycle-topology nodes=5000 pods="
            + JOBS * (WORKERS_PER_JOB + 1)
            + " levels="
            + TOPOLOGY_LEVELS.size()
            + " ms="
            + topology.medianMillis());
  }

  private static void printGpuShare(Measurement gpuShare) {
    System.out.println(
        "core-cycle-gpushare nodes=5000 pods="
            + JOBS * (WORKERS_PER_JOB + 1)
            + " shared="
            + 100 * SHARED_WORKERS / (WORKERS_PER_JOB + 1)
            + "% ms="
            + gpuShare.medianMillis());
  }

  public static void main(String[] args) {
    String suite = args.length > 0 ? args[0] : "standard";
    int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    SchedulerConfiguration configuration =
        DefaultSchedulerConfiguration.parse(scheduler.vocabulary());
    List<QueueInfo> queues =
        List.of(
            new QueueInfo("research", 1, null, true, JobQueuePolicy.PRIORITY),
            new QueueInfo("production", 2, null, true, JobQueuePolicy.DRF),
            new QueueInfo("batch", 3, null, true, JobQueuePolicy.PRIORITY));
    // "cpu ms" is the cycle's own thread CPU time: on a shared machine it shows what the wall time
    // would be alone.
    System.out.printf(
        "%8s %8s %10s %10s %10s %10s %12s %12s %10s%n",
        "nodes",
        "pods",
        "median ms",
        "min ms",
        "max ms",
        "cpu ms",
        "pods placed",
        "jobs placed",
        "heap MiB");
    if (suite.equals("large")) {
      Measurement large =
          measureRow(
              scheduler,
              configuration,
              new Snapshot(nodes(20_000), jobs(LARGE_JOBS), queues),
              LARGE_JOBS * (WORKERS_PER_JOB + 1),
              warmups,
              runs);
      System.out.println(
          "core-cycle nodes=20000 pods="
              + LARGE_JOBS * (WORKERS_PER_JOB + 1)
              + " ms="
              + large.medianMillis()
              + " heapMiB="
              + large.peakHeapMiB());
      return;
    }
    if (suite.equals("gpushare")) {
      printGpuShare(gpuShareRow(scheduler, configuration, queues, warmups, runs));
      return;
    }
    List<JobInfo> jobs = jobs(JOBS);
    if (suite.equals("flat")) {
      Measurement flat =
          measureRow(
              scheduler,
              configuration,
              new Snapshot(nodes(5000), jobs, queues),
              JOBS * (WORKERS_PER_JOB + 1),
              warmups,
              runs);
      System.out.println(
          "core-cycle nodes=5000 pods="
              + JOBS * (WORKERS_PER_JOB + 1)
              + " ms="
              + flat.medianMillis());
      return;
    }
    if (suite.equals("topology")) {
      printTopology(topologyRow(scheduler, configuration, jobs, queues, warmups, runs));
      return;
    }
    Measurement last = null;
    int[] sizes = suite.equals("gang") ? new int[0] : new int[] {500, 1000, 5000};
    for (int nodeCount : sizes) {
      last =
          measureRow(
              scheduler,
              configuration,
              new Snapshot(nodes(nodeCount), jobs, queues),
              JOBS * (WORKERS_PER_JOB + 1),
              warmups,
              runs);
    }
    // Without enqueue: it would admit only the 31 gangs whose minimums the cluster's total GPUs can
    // hold,
    // and the point is allocate finding out that a Strict gang cannot fit.
    SchedulerConfiguration allocateOnly =
        new SchedulerConfigurationParser(scheduler.vocabulary())
            .parse(
                DefaultSchedulerConfiguration.YAML.replace(
                    "enqueue, reclaim, allocate, backfill", "allocate, backfill"));
    if (allocateOnly.actionNames().contains("enqueue")) {
      throw new IllegalStateException("the gang suite must run without enqueue");
    }
    Measurement gangs =
        measureRow(
            scheduler,
            allocateOnly,
            new Snapshot(gangNodes(), gangJobs(), queues),
            GANG_JOBS * (GANG_WORKERS + 1),
            warmups,
            runs);
    if (gangs.podsPlaced() != 0) {
      System.out.println(
          "warning: " + gangs.podsPlaced() + " pods of the gangs that cannot fit were placed");
    }
    Measurement tree = null;
    if (!suite.equals("gang")) {
      List<QueueInfo> treeQueues = treeQueues();
      tree =
          measureRow(
              scheduler,
              configuration,
              new Snapshot(nodes(5000), inLeaves(jobs, treeQueues), treeQueues),
              JOBS * (WORKERS_PER_JOB + 1),
              warmups,
              runs);
    }
    Measurement topology = null;
    if (!suite.equals("gang")) {
      topology = topologyRow(scheduler, configuration, jobs, queues, warmups, runs);
    }
    Measurement gpuShare = null;
    if (!suite.equals("gang")) {
      gpuShare = gpuShareRow(scheduler, configuration, queues, warmups, runs);
    }
    if (last != null) {
      System.out.println(
          "core-cycle nodes=5000 pods="
              + JOBS * (WORKERS_PER_JOB + 1)
              + " ms="
              + last.medianMillis()
              + " heapMiB="
              + last.peakHeapMiB());
    }
    if (tree != null) {
      System.out.println(
          "core-cycle-tree nodes=5000 pods="
              + JOBS * (WORKERS_PER_JOB + 1)
              + " queues="
              + TREE_QUEUES
              + " levels=3 ms="
              + tree.medianMillis());
    }
    if (topology != null) {
      printTopology(topology);
    }
    if (gpuShare != null) {
      printGpuShare(gpuShare);
    }
    System.out.println(
        "core-cycle-gang nodes="
            + GANG_NODES
            + " jobs="
            + GANG_JOBS
            + " pods-per-job="
            + (GANG_WORKERS + 1)
            + " ms="
            + gangs.medianMillis());
  }

  private static Measurement measureRow(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      Snapshot snapshot,
      int pods,
      int warmups,
      int runs) {
    for (int i = 0; i < warmups; i++) {
      scheduler.runCycle(snapshot, configuration, NOW);
    }
    System.gc();
    resetPeaks();
    long[] millis = new long[runs];
    long[] cpuMillis = new long[runs];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    CycleResult result = null;
    for (int i = 0; i < runs; i++) {
      long cpuStart = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      result = scheduler.runCycle(snapshot, configuration, NOW);
      millis[i] = (System.nanoTime() - start) / 1_000_000;
      cpuMillis[i] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
    }
    Arrays.sort(cpuMillis);
    long peakMiB = peakHeapBytes() / (1024 * 1024);
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    int podsPlaced = 0;
    int jobsPlaced = 0;
    for (JobDecision decision : result.decisions().values()) {
      podsPlaced += decision.allocations().size();
      if (decision.state() == ScheduleState.SCHEDULED_SUCCEED
          || decision.state() == ScheduleState.SCHEDULED_PARTLY) {
        jobsPlaced++;
      }
    }
    Measurement measurement =
        new Measurement(
            sorted[runs / 2],
            sorted[0],
            sorted[runs - 1],
            cpuMillis[runs / 2],
            podsPlaced,
            jobsPlaced,
            peakMiB);
    System.out.printf(
        "%8d %8d %10d %10d %10d %10d %12d %12d %10d%n",
        snapshot.nodes().size(),
        pods,
        measurement.medianMillis(),
        measurement.minMillis(),
        measurement.maxMillis(),
        measurement.medianCpuMillis(),
        podsPlaced,
        jobsPlaced,
        peakMiB);
    return measurement;
  }

  /**
   * 1,000 nodes whose GPUs are taken by pods outside the snapshot's jobs, except for 255: all 8 on
   * 31 nodes and 7 on one. Every gang needs 256 of them, so none fits.
   */
  static List<NodeInfo> gangNodes() {
    List<NodeInfo> nodes = new ArrayList<>(GANG_NODES);
    Resource allocatable =
        Resource.of("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8", "pods", "110");
    for (int i = 0; i < GANG_NODES; i++) {
      int freeGpus = i < 31 ? 8 : i == 31 ? 7 : 0;
      Resource used =
          Resource.of(
              "cpu", "8", "memory", "64Gi", "nvidia.com/gpu", Integer.toString(8 - freeGpus));
      nodes.add(
          new NodeInfo(
              "node-" + i,
              Map.of("kubernetes.io/hostname", "node-" + i),
              List.of(),
              allocatable,
              used,
              Resource.EMPTY,
              true,
              false,
              4));
    }
    return nodes;
  }

  /** Strict gangs of a leader (no GPU) and 256 one-GPU workers, all of them in the minimum. */
  static List<JobInfo> gangJobs() {
    Resource leader = Resource.of("cpu", "8", "memory", "32Gi");
    Resource worker = Resource.of("cpu", "1", "memory", "4Gi", "nvidia.com/gpu", "1");
    String[] queues = {"research", "production", "batch"};
    List<JobInfo> jobs = new ArrayList<>(GANG_JOBS);
    Instant created = NOW.minus(Duration.ofMinutes(30));
    for (int j = 0; j < GANG_JOBS; j++) {
      String name = "gang-" + j;
      List<TaskInfo> tasks = new ArrayList<>(GANG_WORKERS + 1);
      tasks.add(TaskInfo.leader(name, "learner", leader));
      for (int w = 0; w < GANG_WORKERS; w++) {
        tasks.add(TaskInfo.worker(name, "actor", w, worker));
      }
      jobs.add(
          JobInfo.builder("team-" + (j % 5), name)
              .queue(queues[j % 3])
              .priority(1 + j % 10)
              .creationTime(created.plusSeconds(j))
              .minWorkersNum(GANG_WORKERS)
              .basicPolicy(BasicPolicy.GANG)
              .gang(new GangSpec(GangMode.STRICT, null, null))
              .tasks(tasks)
              .build());
    }
    return jobs;
  }

  private static final int TREE_QUEUES = 100;

  /**
   * 100 queues in three levels: 4 departments of 4 groups of 5 teams; every level has guarantees (a
   * quarter of the cluster's GPUs per department, split evenly below), weights and priorities that
   * differ.
   */
  static List<QueueInfo> treeQueues() {
    List<QueueInfo> queues = new ArrayList<>();
    int gpus = 5000 * 8;
    for (int d = 0; d < 4; d++) {
      String department = "dept-" + d;
      queues.add(
          QueueInfo.of(department, 1 + d)
              .inTree(null, Resource.of("nvidia.com/gpu", Integer.toString(gpus / 8))));
      for (int g = 0; g < 4; g++) {
        String group = department + "-group-" + g;
        queues.add(
            QueueInfo.of(group, 1 + g)
                .inTree(department, Resource.of("nvidia.com/gpu", Integer.toString(gpus / 32))));
        for (int t = 0; t < 5; t++) {
          queues.add(
              new QueueInfo(
                      group + "-team-" + t,
                      1 + t,
                      null,
                      true,
                      t % 2 == 0 ? JobQueuePolicy.PRIORITY : JobQueuePolicy.DRF,
                      t % 3,
                      true)
                  .inTree(group, Resource.of("nvidia.com/gpu", Integer.toString(gpus / 160))));
        }
      }
    }
    return queues;
  }

  /** The jobs spread over the tree's leaves. */
  static List<JobInfo> inLeaves(List<JobInfo> jobs, List<QueueInfo> queues) {
    List<String> leaves = new ArrayList<>();
    for (QueueInfo queue : queues) {
      if (queue.name().contains("-team-")) {
        leaves.add(queue.name());
      }
    }
    List<JobInfo> placed = new ArrayList<>(jobs.size());
    for (int j = 0; j < jobs.size(); j++) {
      placed.add(jobs.get(j).toBuilder().queue(leaves.get(j % leaves.size())).build());
    }
    return placed;
  }

  static List<NodeInfo> nodes(int count) {
    List<NodeInfo> nodes = new ArrayList<>(count);
    Resource allocatable =
        Resource.of(
            "cpu",
            "64",
            "memory",
            "512Gi",
            "nvidia.com/gpu",
            "8",
            "pods",
            "110",
            "ephemeral-storage",
            "1Ti");
    for (int i = 0; i < count; i++) {
      boolean a100 = i % 10 == 0;
      List<Taint> taints =
          a100 ? List.of(new Taint("gpu", "a100", TaintEffect.NO_SCHEDULE)) : List.of();
      Map<String, String> labels =
          Map.of(
              "zone",
              "z" + (i % 4),
              "gpu",
              a100 ? "a100" : "v100",
              "kubernetes.io/hostname",
              "node-" + i);
      nodes.add(
          new NodeInfo(
              "node-" + i,
              labels,
              taints,
              allocatable,
              Resource.EMPTY,
              Resource.EMPTY,
              true,
              false,
              0));
    }
    return nodes;
  }

  static final List<String> TOPOLOGY_LEVELS =
      List.of("zone", "example.com/block", "example.com/rack");

  /** The nodes with blocks of 160 nodes and racks of 20 besides their zone (z0..z3, by index). */
  static List<NodeInfo> withTopologyLabels(List<NodeInfo> nodes) {
    List<NodeInfo> labelled = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      NodeInfo node = nodes.get(i);
      Map<String, String> labels = new java.util.HashMap<>(node.labels());
      labels.put("example.com/block", "b" + i / 160);
      labels.put("example.com/rack", "r" + i / 20);
      labelled.add(
          new NodeInfo(
              node.name(),
              labels,
              node.taints(),
              node.allocatable(),
              node.used(),
              node.releasing(),
              node.ready(),
              node.unschedulable(),
              node.podCount()));
    }
    return labelled;
  }

  /**
   * The jobs, a third asking a required rack, a third a required block and a preferred rack, the
   * rest nothing.
   */
  static List<JobInfo> withTopology(List<JobInfo> jobs) {
    List<JobInfo> asking = new ArrayList<>(jobs.size());
    for (int j = 0; j < jobs.size(); j++) {
      TopologyRequest topology =
          switch (j % 3) {
            case 0 -> new TopologyRequest("example.com/rack", null);
            case 1 -> new TopologyRequest("example.com/block", "example.com/rack");
            default -> TopologyRequest.NONE;
          };
      asking.add(jobs.get(j).toBuilder().topology(topology).build());
    }
    return asking;
  }

  static List<JobInfo> jobs(int count) {
    return jobs(count, 0);
  }

  /**
   * @param sharedWorkers how many of each job's workers ask a quarter of a GPU instead of a whole
   *     one
   */
  static List<JobInfo> jobs(int count, int sharedWorkers) {
    String[] queues = {"research", "production", "batch"};
    List<BasicPolicy> policies = NodeOrderPlugin.BASIC_POLICIES;
    PlacementConstraints anyV100 =
        PlacementConstraints.NONE.withNodeSelector(Map.of("gpu", "v100"));
    PlacementConstraints a100 =
        PlacementConstraints.NONE
            .withNodeSelector(Map.of("gpu", "a100"))
            .withTolerations(List.of(Toleration.equal("gpu", "a100", TaintEffect.NO_SCHEDULE)));
    Resource leader = Resource.of("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "1");
    Resource worker = Resource.of("cpu", "4", "memory", "16Gi", "nvidia.com/gpu", "1");
    Resource sharedWorker = Resource.of("cpu", "4", "memory", "16Gi", "nvidia.com/gpu", "250m");
    List<JobInfo> jobs = new ArrayList<>(count);
    Instant created = NOW.minus(Duration.ofMinutes(30));
    for (int j = 0; j < count; j++) {
      String name = "job-" + j;
      PlacementConstraints constraints =
          j % 10 == 0 ? a100 : j % 3 == 0 ? anyV100 : PlacementConstraints.NONE;
      List<TaskInfo> tasks = new ArrayList<>();
      tasks.add(TaskInfo.leader(name, "learner", leader).withConstraints(constraints));
      for (int w = 0; w < WORKERS_PER_JOB; w++) {
        tasks.add(
            TaskInfo.worker(name, "actor", w, w < sharedWorkers ? sharedWorker : worker)
                .withConstraints(constraints));
      }
      GangMode mode = j % 7 == 0 ? GangMode.NON_STRICT : GangMode.STRICT;
      jobs.add(
          JobInfo.builder("team-" + (j % 5), name)
              .queue(queues[j % 3])
              .priority(1 + j % 10)
              .creationTime(created.plusSeconds(j))
              .minWorkersNum(4)
              .basicPolicy(policies.get(j % policies.size()))
              .gang(new GangSpec(mode, null, null))
              .tasks(tasks)
              .build());
    }
    return jobs;
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /** Sum of the heap pools' peaks: an upper bound of the heap in use at any one time. */
  private static long peakHeapBytes() {
    long total = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        total += pool.getPeakUsage().getUsed();
      }
    }
    return total;
  }
}
