package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * LeaderFirst: keep the Learner on a quiet node, pack the Actors.
 *
 * <ul>
 *   <li>leader: {@code 100 × (1 − utilizationAfter)} with the GPU weight multiplied by {@code
 *       gpuBoost} — the least used node wins, GPU use counting most;
 *   <li>worker: {@code 100 × utilizationAfter} with the cpu weight multiplied by {@code cpuBoost} —
 *       the most used node wins, cpu use counting most.
 * </ul>
 *
 * Left alone, the leader rule spreads small leaders over every idle GPU node, and a pod that needs
 * a whole node then waits for one to empty. So once the idle GPU nodes are down to what the pending
 * pods that only an idle node can hold need ({@code idleGpuNodes}; null when the session has no
 * GPUs), a leader that needs only part of a node's GPUs scores 100 less on an idle node: it takes
 * the quietest used node that fits and opens an idle one only when none does. While no such pod
 * waits, the leader rule alone applies.
 */
record LeaderFirstPolicy(
    ResourceWeights leaderWeights, ResourceWeights workerWeights, IdleGpuNodes idleGpuNodes)
    implements NodeOrderPolicy {

  static final double IDLE_NODE_PENALTY = 100;

  static LeaderFirstPolicy of(
      ResourceWeights base, long gpuBoost, long cpuBoost, IdleGpuNodes idleGpuNodes) {
    return new LeaderFirstPolicy(
        base.withGpuWeight(base.gpuWeight() * gpuBoost),
        base.withCpuWeight(base.cpuWeight() * cpuBoost),
        idleGpuNodes);
  }

  @Override
  public double score(TaskState task, NodeState node) {
    if (!task.isLeader()) {
      return 100 * workerWeights.utilizationAfter(task, node);
    }
    double quietness = 100 * (1 - leaderWeights.utilizationAfter(task, node));
    return keepsIdleFor(task, node) ? quietness - IDLE_NODE_PENALTY : quietness;
  }

  private boolean keepsIdleFor(TaskState task, NodeState node) {
    if (idleGpuNodes == null || !idleGpuNodes.isIdle(node) || !idleGpuNodes.downToReserve()) {
      return false;
    }
    long gpus = task.request(leaderWeights.gpuDimension());
    return gpus > 0
        && gpus < node.allocatable(leaderWeights.gpuDimension())
        && !idleGpuNodes.needsIdleNode(task);
  }
}
