package io.tyrl.arranger.scheduler.bench;

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
import io.tyrl.arranger.scheduler.api.ScheduleState;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Full scheduling cycles on synthetic clusters (not a test): 500, 1,000 and 5,000 nodes of 64 cpu /
 * 512Gi / 8 GPUs, 2,000 pending jobs of a leader + 9 workers in 3 queues, all six basic policies,
 * some NonStrict gangs, a tainted GPU pool. Prints a table (median of several runs after warm-up;
 * peak heap from the heap pools' peak usage, reset per size) and, last, the summary line
 * {@code core-cycle nodes=5000 pods=20000 ms=<median> heapMiB=<peak>}.
 *
 * <p>Run with {@code scripts/bench-core.sh}, or {@code java -cp <classes:test-classes:snakeyaml>
 * io.tyrl.arranger.scheduler.bench.CoreCycleBenchmark [warmups] [runs]}.
 */
public final class CoreCycleBenchmark {

  private static final int JOBS = 2000;
  private static final int WORKERS_PER_JOB = 9;
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  private CoreCycleBenchmark() {}

  public static void main(String[] args) {
    int warmups = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Scheduler scheduler = new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    SchedulerConfiguration configuration = DefaultSchedulerConfiguration.parse(scheduler.vocabulary());
    List<JobInfo> jobs = jobs();
    List<QueueInfo> queues = List.of(
        new QueueInfo("research", 1, null, true, JobQueuePolicy.PRIORITY),
        new QueueInfo("production", 2, null, true, JobQueuePolicy.DRF),
        new QueueInfo("batch", 3, null, true, JobQueuePolicy.PRIORITY));
    System.out.printf("%8s %8s %10s %10s %10s %12s %12s %10s%n", "nodes", "pods", "median ms", "min ms", "max ms",
        "pods placed", "jobs placed", "heap MiB");
    String last = "";
    for (int nodeCount : new int[] {500, 1000, 5000}) {
      Snapshot snapshot = new Snapshot(nodes(nodeCount), jobs, queues);
      for (int i = 0; i < warmups; i++) {
        scheduler.runCycle(snapshot, configuration, NOW);
      }
      System.gc();
      resetPeaks();
      long[] millis = new long[runs];
      CycleResult result = null;
      for (int i = 0; i < runs; i++) {
        long start = System.nanoTime();
        result = scheduler.runCycle(snapshot, configuration, NOW);
        millis[i] = (System.nanoTime() - start) / 1_000_000;
      }
      long peakMiB = peakHeapBytes() / (1024 * 1024);
      long[] sorted = millis.clone();
      Arrays.sort(sorted);
      long median = sorted[runs / 2];
      int podsPlaced = 0;
      int jobsPlaced = 0;
      for (JobDecision decision : result.decisions().values()) {
        podsPlaced += decision.allocations().size();
        if (decision.state() == ScheduleState.SCHEDULED_SUCCEED || decision.state() == ScheduleState.SCHEDULED_PARTLY) {
          jobsPlaced++;
        }
      }
      int pods = JOBS * (WORKERS_PER_JOB + 1);
      System.out.printf("%8d %8d %10d %10d %10d %12d %12d %10d%n", nodeCount, pods, median, sorted[0], sorted[runs - 1],
          podsPlaced, jobsPlaced, peakMiB);
      last = "core-cycle nodes=" + nodeCount + " pods=" + pods + " ms=" + median + " heapMiB=" + peakMiB;
    }
    System.out.println(last);
  }

  static List<NodeInfo> nodes(int count) {
    List<NodeInfo> nodes = new ArrayList<>(count);
    Resource allocatable = Resource.of("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8", "pods", "110",
        "ephemeral-storage", "1Ti");
    for (int i = 0; i < count; i++) {
      boolean a100 = i % 10 == 0;
      List<Taint> taints = a100 ? List.of(new Taint("gpu", "a100", TaintEffect.NO_SCHEDULE)) : List.of();
      Map<String, String> labels = Map.of("zone", "z" + (i % 4), "gpu", a100 ? "a100" : "v100",
          "kubernetes.io/hostname", "node-" + i);
      nodes.add(new NodeInfo("node-" + i, labels, taints, allocatable, Resource.EMPTY, Resource.EMPTY, true, false, 0));
    }
    return nodes;
  }

  static List<JobInfo> jobs() {
    String[] queues = {"research", "production", "batch"};
    BasicPolicy[] policies = BasicPolicy.values();
    PlacementConstraints anyV100 = PlacementConstraints.NONE.withNodeSelector(Map.of("gpu", "v100"));
    PlacementConstraints a100 = PlacementConstraints.NONE.withNodeSelector(Map.of("gpu", "a100"))
        .withTolerations(List.of(Toleration.equal("gpu", "a100", TaintEffect.NO_SCHEDULE)));
    Resource leader = Resource.of("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "1");
    Resource worker = Resource.of("cpu", "4", "memory", "16Gi", "nvidia.com/gpu", "1");
    List<JobInfo> jobs = new ArrayList<>(JOBS);
    Instant created = NOW.minus(Duration.ofMinutes(30));
    for (int j = 0; j < JOBS; j++) {
      String name = "job-" + j;
      PlacementConstraints constraints = j % 10 == 0 ? a100 : j % 3 == 0 ? anyV100 : PlacementConstraints.NONE;
      List<TaskInfo> tasks = new ArrayList<>();
      tasks.add(TaskInfo.leader(name, "learner", leader).withConstraints(constraints));
      for (int w = 0; w < WORKERS_PER_JOB; w++) {
        tasks.add(TaskInfo.worker(name, "actor", w, worker).withConstraints(constraints));
      }
      GangMode mode = j % 7 == 0 ? GangMode.NON_STRICT : GangMode.STRICT;
      jobs.add(new JobInfo("team-" + (j % 5), name, null, queues[j % 3], 1 + j % 10, created.plusSeconds(j), 4,
          policies[j % policies.length], null, new GangSpec(mode, null, null), null, tasks));
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
