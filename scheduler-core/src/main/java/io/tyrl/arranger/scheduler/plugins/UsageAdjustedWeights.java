package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.List;

/**
 * The weights by which siblings of one priority split what is above their guarantees, adjusted for
 * what each used in the past (fairness over time). For one resource, with {@code w} a sibling's
 * weight, {@code s = w / Σw} its weight's part, {@code u} the share of the cluster it held on
 * (decayed) average ({@code usage / (cluster × horizon)}, see {@link DecayedUsage#horizonSeconds}),
 * {@code U = Σu} the siblings' together, and {@code P} the larger of {@code U} and the share of the
 * cluster being split among them:
 *
 * <pre>
 *   w' = w × 2^(−k × (u − s × U) / P)
 * </pre>
 *
 * A sibling that used exactly its weight's part of what the siblings used keeps its weight; one
 * that used more loses, one that used less gains, smoothly: the adjustment moves with the decayed
 * usage, never with what a queue holds this cycle. With {@code k = 0}, or no history, the weights
 * are the queues' own, exactly. Guarantees are handed out before and never see these weights.
 */
final class UsageAdjustedWeights {

  /** The largest adjusted weight is scaled to this, so that the split stays in whole units. */
  private static final double SCALE = 1L << 40;

  private UsageAdjustedWeights() {}

  /**
   * @param capacity what is being split among {@code siblings} of the resource (their parent's
   *     share, or the cluster's total at the top), in the session's units
   */
  static long[] of(Session session, List<QueueState> siblings, int dimension, long capacity) {
    long[] weights = new long[siblings.size()];
    long totalWeight = 0;
    for (int i = 0; i < weights.length; i++) {
      weights[i] = siblings.get(i).info().weight();
      totalWeight += weights[i];
    }
    FairnessConfiguration fairness = session.fairness();
    long cluster = session.clusterAllocatable(dimension);
    if (!fairness.adjustsShares() || cluster == 0 || siblings.size() < 2) {
      return weights;
    }
    double[] used = usedShares(session, siblings, dimension, fairness);
    double totalUsed = 0;
    for (double u : used) {
      totalUsed += u;
    }
    if (totalUsed <= 0) {
      return weights;
    }
    double scale = Math.max(totalUsed, (double) capacity / cluster);
    double[] adjusted = new double[weights.length];
    double largest = 0;
    for (int i = 0; i < weights.length; i++) {
      double part = (double) weights[i] / totalWeight;
      double exponent = -fairness.strength() * (used[i] - part * totalUsed) / scale;
      adjusted[i] = weights[i] * Math.pow(2, exponent);
      largest = Math.max(largest, adjusted[i]);
    }
    long[] result = new long[weights.length];
    for (int i = 0; i < weights.length; i++) {
      result[i] = Math.max(1, Math.round(adjusted[i] / largest * SCALE));
    }
    return result;
  }

  /**
   * Per sibling, the share of the cluster's {@code dimension} it held on (decayed) average: 1 for a
   * queue that held all of it for the whole horizon.
   */
  static double[] usedShares(
      Session session, List<QueueState> queues, int dimension, FairnessConfiguration fairness) {
    String name = session.dimensions().name(dimension);
    long capacity = session.clusterAllocatable(dimension);
    double[] used = new double[queues.size()];
    for (int i = 0; i < used.length; i++) {
      used[i] =
          session
              .usageOf(queues.get(i))
              .queue()
              .clusterShare(name, capacity, fairness.halfLife(), fairness.window());
    }
    return used;
  }
}
