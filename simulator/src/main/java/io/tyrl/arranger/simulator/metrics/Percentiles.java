package io.tyrl.arranger.simulator.metrics;

import java.util.Arrays;

/**
 * Nearest-rank percentiles: the p-th is the smallest value with at least p % of the values at or
 * below it.
 */
public final class Percentiles {

  private Percentiles() {}

  /** NaN for no values. */
  public static double of(double[] values, double percent) {
    if (values.length == 0) {
      return Double.NaN;
    }
    if (!(percent > 0) || percent > 100) {
      throw new IllegalArgumentException("percent must be within (0, 100], was " + percent);
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percent / 100 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
