package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * JobAntiAffinity: spread a job's pods. {@code score = −100 × (pods of the job on the node) + (100
 * − BinPack score)}; fewer of the job's pods always wins, and among equals the least used node.
 */
public record JobAntiAffinityPolicy(BinPackPolicy binPack) implements NodeOrderPolicy {

  @Override
  public double score(TaskState task, NodeState node) {
    return -100.0 * task.job().podsOn(node) + (100 - binPack.score(task, node));
  }
}
