package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * JobAffinity: pack a job's pods together. {@code score = 100 × (pods of the job on the node) +
 * BinPack score}; BinPack is at most 100, so more of the job's pods always wins and BinPack only
 * breaks ties (the first pod goes to the fullest node, and the job grows there).
 */
public record JobAffinityPolicy(BinPackPolicy binPack) implements NodeOrderPolicy {

  @Override
  public double score(TaskState task, NodeState node) {
    return 100.0 * task.job().podsOn(node) + binPack.score(task, node);
  }
}
