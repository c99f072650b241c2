package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * BinPack: fill used nodes first. {@code score = 100 × utilizationAfter} (see {@link
 * ResourceWeights}).
 */
public record BinPackPolicy(ResourceWeights weights) implements NodeOrderPolicy {

  @Override
  public double score(TaskState task, NodeState node) {
    return 100 * weights.utilizationAfter(task, node);
  }
}
