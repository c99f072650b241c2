package io.tyrl.arranger.simulator.metrics;

/** Time averages of a step function: each value holds from its time until the next one's. */
public final class StepSeries {

  private StepSeries() {}

  /**
   * The mean of the step function over [0, end]; before the first time it is 0, and the last value
   * holds until {@code end}. NaN when {@code end} is not positive.
   */
  public static double mean(double[] times, double[] values, double end) {
    return mean(times, values, 0, end);
  }

  /** The mean over [start, end]; NaN when the interval is empty. */
  public static double mean(double[] times, double[] values, double start, double end) {
    if (times.length != values.length) {
      throw new IllegalArgumentException("times and values differ in length");
    }
    if (!(end > start)) {
      return Double.NaN;
    }
    double area = 0;
    for (int i = 0; i < times.length; i++) {
      double from = Math.max(start, times[i]);
      double to = Math.min(end, i + 1 < times.length ? times[i + 1] : end);
      if (to > from) {
        area += values[i] * (to - from);
      }
    }
    return area / (end - start);
  }
}
