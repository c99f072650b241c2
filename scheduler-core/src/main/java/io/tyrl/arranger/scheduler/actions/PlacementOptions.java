package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;

/**
 * How widely a node search looks (kube-scheduler's knobs): {@code percentageOfNodesToScore} (0 =
 * adaptive, 100 = every node — exact but slow on large clusters) and {@code
 * minFeasibleNodesToFind}.
 */
record PlacementOptions(int percentageOfNodesToScore, int minFeasibleNodesToFind) {

  static final ArgumentSpec<Integer> PERCENTAGE_OF_NODES_TO_SCORE =
      ArgumentSpec.integer("percentageOfNodesToScore", 0, 0, 100);
  static final ArgumentSpec<Integer> MIN_FEASIBLE_NODES_TO_FIND =
      ArgumentSpec.integer("minFeasibleNodesToFind", 100, 1, 1_000_000);

  /** The arguments of every action that searches nodes. */
  static final ArgumentSchema SCHEMA =
      ArgumentSchema.of(PERCENTAGE_OF_NODES_TO_SCORE, MIN_FEASIBLE_NODES_TO_FIND);

  static PlacementOptions from(Arguments arguments) {
    return new PlacementOptions(
        arguments.get(PERCENTAGE_OF_NODES_TO_SCORE), arguments.get(MIN_FEASIBLE_NODES_TO_FIND));
  }
}
