package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * MinFragment: prefer nodes whose cpu and memory fill up evenly, so neither is stranded. {@code
 * score = (1 − |cpu(used+request)/allocatable − memory(used+request)/allocatable|) × BinPack
 * score}.
 */
public record MinFragmentPolicy(BinPackPolicy binPack) implements NodeOrderPolicy {

  @Override
  public double score(TaskState task, NodeState node) {
    double cpu = ResourceWeights.ratioAfter(task, node, ResourceDimensions.CPU);
    double memory = ResourceWeights.ratioAfter(task, node, ResourceDimensions.MEMORY);
    return (1 - Math.abs(cpu - memory)) * binPack.score(task, node);
  }
}
