package io.tyrl.arranger.scheduler.sim;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks decisions independently of the scheduler's own books: recomputes every node's usage from
 * the snapshot's foreign usage, the pods still being released there, and the requests of the pods
 * the decisions place on it.
 */
public final class DecisionChecks {

  private DecisionChecks() {}

  /** Every over-commitment found, as text; empty when none. */
  public static List<String> overCommitments(Snapshot snapshot, CycleResult result) {
    Map<String, Resource> usage = new HashMap<>();
    Map<String, Integer> pods = new HashMap<>();
    for (NodeInfo node : snapshot.nodes()) {
      usage.put(node.name(), node.used());
      pods.put(node.name(), node.podCount());
    }
    for (JobInfo job : snapshot.jobs()) {
      Map<String, String> allocations = result.decision(job.key()).allocations();
      for (TaskInfo task : job.tasks()) {
        String node = allocations.get(task.podName());
        if (node == null && task.status() == TaskStatus.RELEASING) {
          node = task.nodeName();
        }
        if (node != null) {
          usage.merge(node, task.request(), Resource::plus);
          pods.merge(node, 1, Integer::sum);
        }
      }
    }
    List<String> problems = new ArrayList<>();
    for (NodeInfo node : snapshot.nodes()) {
      Resource used = usage.get(node.name());
      Resource capacity = node.allocatable();
      for (Map.Entry<String, Long> entry : used.quantities().entrySet()) {
        if (entry.getKey().equals(Resource.PODS)) {
          continue;
        }
        if (entry.getValue() > capacity.get(entry.getKey())
            && entry.getValue() > node.used().get(entry.getKey())) {
          problems.add(
              node.name()
                  + " "
                  + entry.getKey()
                  + " "
                  + entry.getValue()
                  + " > "
                  + capacity.get(entry.getKey()));
        }
      }
      long podCapacity = capacity.get(Resource.PODS);
      if (podCapacity > 0
          && pods.get(node.name()) > podCapacity
          && pods.get(node.name()) > node.podCount()) {
        problems.add(node.name() + " pods " + pods.get(node.name()) + " > " + podCapacity);
      }
    }
    return problems;
  }

  /**
   * An amount's GPUs as whole GPUs (the core counts them in milli-GPU), failing on a share of one:
   * what a test of whole-GPU pods expects.
   */
  public static long wholeGpus(long milliGpu) {
    if (milliGpu % 1000 != 0) {
      throw new AssertionError(milliGpu + "m GPU is not a whole number of GPUs");
    }
    return milliGpu / 1000;
  }

  /** {@link #allocatedByQueue} of GPUs, in whole GPUs. */
  public static Map<String, Long> wholeGpusByQueue(Snapshot snapshot, CycleResult result) {
    Map<String, Long> byQueue = new HashMap<>();
    allocatedByQueue(snapshot, result, Resource.GPU)
        .forEach((queue, milli) -> byQueue.put(queue, wholeGpus(milli)));
    return byQueue;
  }

  /**
   * Per queue, the amount of one resource its jobs' allocations hold after the cycle, from the
   * decisions alone.
   */
  public static Map<String, Long> allocatedByQueue(
      Snapshot snapshot, CycleResult result, String resource) {
    Map<String, Long> byQueue = new HashMap<>();
    snapshot.queues().forEach(queue -> byQueue.put(queue.name(), 0L));
    for (JobInfo job : snapshot.jobs()) {
      Map<String, String> allocations = result.decision(job.key()).allocations();
      for (TaskInfo task : job.tasks()) {
        if (allocations.containsKey(task.podName())) {
          byQueue.merge(job.queue(), task.request().get(resource), Long::sum);
        }
      }
    }
    return byQueue;
  }
}
