package io.tyrl.arranger.simulator.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What each leaf queue of a run deserves at a point: for queues that are only weighted, {@link
 * WaterFilling} of the cluster's GPUs by weight; for a queue tree with guarantees, limits,
 * priorities or more than one level, {@link TreeFairShare}'s share.
 */
public final class DeservedShares {

  private final long capacityGpu;
  private final int[] weights;
  private final TreeFairShare tree;
  private final int[] leafIndexes;

  private final List<QueueLabel> queues;
  private final int depth;

  private DeservedShares(RunRecord run) {
    this.capacityGpu = run.capacityGpu();
    Set<String> leaves = new HashSet<>();
    run.tree().leaves().forEach(leaf -> leaves.add(leaf.name()));
    this.queues =
        run.tree().queues().stream()
            .map(
                queue ->
                    new QueueLabel(
                        queue.name(),
                        leaves.contains(queue.name()),
                        queue.weight(),
                        queue.guaranteeGpu()))
            .toList();
    this.depth = run.tree().depth();
    this.weights = run.queueWeights().stream().mapToInt(Integer::intValue).toArray();
    this.tree = run.tree().isFlatWeightsOnly() ? null : new TreeFairShare(run.tree());
    this.leafIndexes = tree == null ? null : tree.leafIndexes();
  }

  public static DeservedShares of(RunRecord run) {
    return new DeservedShares(run);
  }

  /** The run's queues in tree order (for a run whose queues are only weighted: its leaves). */
  public List<QueueLabel> queues() {
    return tree == null ? queues.stream().filter(QueueLabel::leaf).toList() : queues;
  }

  /** The tree's levels: 1 when the queues are flat. */
  public int depth() {
    return depth;
  }

  /** A queue as plots name it. */
  public record QueueLabel(String name, boolean leaf, int weight, long guaranteeGpu) {}

  /**
   * Every queue of the tree at a point, in tree order: the GPUs its subtree holds, and its fair
   * share ({@link TreeFairShare}) — for a run whose queues are only weighted, the leaves' weighted
   * water-filling.
   */
  public QueuePoint allQueues(AllocationPoint point) {
    if (tree == null) {
      double[] fair = leaves(point);
      double[] held = new double[fair.length];
      for (int q = 0; q < fair.length; q++) {
        held[q] = point.queueHeldGpu()[q];
      }
      return new QueuePoint(held, fair);
    }
    long[] held = tree.subtreeSums(point.queueHeldGpu());
    long[] fair = tree.shares(capacityGpu, point.queueDemandGpu());
    double[] heldD = new double[held.length];
    double[] fairD = new double[fair.length];
    for (int q = 0; q < held.length; q++) {
      heldD[q] = held[q];
      fairD[q] = fair[q];
    }
    return new QueuePoint(heldD, fairD);
  }

  /** GPUs held and deserved by every queue of the tree at one point, in tree order. */
  public record QueuePoint(double[] held, double[] fair) {}

  /** The leaves' deserved GPUs, in the run's queue order. */
  public double[] leaves(AllocationPoint point) {
    long[] demand = point.queueDemandGpu();
    double[] deserved = new double[demand.length];
    if (tree == null) {
      double[] asked = new double[demand.length];
      for (int q = 0; q < demand.length; q++) {
        asked[q] = demand[q];
      }
      return WaterFilling.deserved(capacityGpu, weights, asked);
    }
    long[] shares = tree.shares(capacityGpu, demand);
    for (int q = 0; q < demand.length; q++) {
      deserved[q] = shares[leafIndexes[q]];
    }
    return deserved;
  }
}
