package io.tyrl.arranger.simulator.metrics;

/**
 * The queues of one level of the tree (1 = top) over a run: the largest and the mean of their share
 * deviations (fractions of the cluster's GPUs) and their guarantee violations.
 */
public record LevelSummary(
    int level, int queues, double shareDevMax, double shareDevMean, int guaranteeViolations) {}
