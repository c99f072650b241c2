package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * Weights of cpu, memory and GPU in a utilization score, resolved to the session's dimensions.
 *
 * <p>{@code utilizationAfter(task, node)} = {@code Σ w_r · (used_r + request_r) / allocatable_r ÷ Σ
 * w_r} over the weighted resources the task requests and the node has — Volcano's binpack, in [0,
 * 1] for a task that fits. A task that requests none of them (best effort) is judged by the node's
 * current utilization of every weighted resource the node has.
 */
public record ResourceWeights(
    int cpuDimension,
    long cpuWeight,
    int memoryDimension,
    long memoryWeight,
    int gpuDimension,
    long gpuWeight) {

  public static ResourceWeights resolve(
      ResourceDimensions dimensions, String gpuName, long cpu, long memory, long gpu) {
    return new ResourceWeights(
        ResourceDimensions.CPU,
        cpu,
        ResourceDimensions.MEMORY,
        memory,
        dimensions.indexOf(gpuName),
        gpu);
  }

  public ResourceWeights withCpuWeight(long weight) {
    return new ResourceWeights(
        cpuDimension, weight, memoryDimension, memoryWeight, gpuDimension, gpuWeight);
  }

  public ResourceWeights withGpuWeight(long weight) {
    return new ResourceWeights(
        cpuDimension, cpuWeight, memoryDimension, memoryWeight, gpuDimension, weight);
  }

  public double utilizationAfter(TaskState task, NodeState node) {
    double weighted = 0;
    long weights = 0;
    for (int i = 0; i < 3; i++) {
      int dimension = dimension(i);
      long weight = weight(i);
      if (dimension < 0
          || weight == 0
          || node.allocatable(dimension) <= 0
          || task.request(dimension) == 0) {
        continue;
      }
      weighted +=
          weight
              * (double) (node.used(dimension) + task.request(dimension))
              / node.allocatable(dimension);
      weights += weight;
    }
    if (weights > 0) {
      return weighted / weights;
    }
    for (int i = 0; i < 3; i++) {
      int dimension = dimension(i);
      long weight = weight(i);
      if (dimension < 0 || weight == 0 || node.allocatable(dimension) <= 0) {
        continue;
      }
      weighted += weight * (double) node.used(dimension) / node.allocatable(dimension);
      weights += weight;
    }
    return weights == 0 ? 0 : weighted / weights;
  }

  /**
   * {@code (used_r + request_r) / allocatable_r} for one resource; 0 when the node has none of it.
   */
  public static double ratioAfter(TaskState task, NodeState node, int dimension) {
    long allocatable = node.allocatable(dimension);
    return allocatable <= 0
        ? 0
        : (double) (node.used(dimension) + task.request(dimension)) / allocatable;
  }

  private int dimension(int i) {
    return i == 0 ? cpuDimension : i == 1 ? memoryDimension : gpuDimension;
  }

  private long weight(int i) {
    return i == 0 ? cpuWeight : i == 1 ? memoryWeight : gpuWeight;
  }
}
