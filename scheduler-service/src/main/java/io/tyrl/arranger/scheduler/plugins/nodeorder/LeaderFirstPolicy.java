package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * LeaderFirst: keep the Learner on a quiet node, pack the Actors.
 * <ul>
 *   <li>leader: {@code 100 × (1 − utilizationAfter)} with the GPU weight multiplied by {@code gpuBoost} —
 *       the least used node wins, GPU use counting most;</li>
 *   <li>worker: {@code 100 × utilizationAfter} with the cpu weight multiplied by {@code cpuBoost} —
 *       the most used node wins, cpu use counting most.</li>
 * </ul>
 */
public record LeaderFirstPolicy(ResourceWeights leaderWeights, ResourceWeights workerWeights) implements NodeOrderPolicy {

  public static LeaderFirstPolicy of(ResourceWeights base, long gpuBoost, long cpuBoost) {
    return new LeaderFirstPolicy(base.withGpuWeight(base.gpuWeight() * gpuBoost), base.withCpuWeight(base.cpuWeight() * cpuBoost));
  }

  @Override
  public double score(TaskState task, NodeState node) {
    return task.isLeader()
        ? 100 * (1 - leaderWeights.utilizationAfter(task, node))
        : 100 * workerWeights.utilizationAfter(task, node);
  }
}
