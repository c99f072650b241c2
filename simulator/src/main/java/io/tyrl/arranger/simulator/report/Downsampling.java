package io.tyrl.arranger.simulator.report;

/**
 * Shrinks a step series to at most a number of buckets for plotting: each bucket shows its
 * time-weighted mean.
 */
final class Downsampling {

  private Downsampling() {}

  /**
   * xs are the buckets' starts; the step series holds each value from its time until the next
   * one's, 0 before the first.
   */
  static double[][] bucketMeans(double[] times, double[] values, double end, int buckets) {
    if (!(end > 0) || buckets < 1) {
      return new double[][] {new double[0], new double[0]};
    }
    double width = end / buckets;
    double[] area = new double[buckets];
    for (int i = 0; i < times.length; i++) {
      double from = Math.max(0, times[i]);
      double to = Math.min(end, i + 1 < times.length ? times[i + 1] : end);
      while (to > from) {
        int bucket = Math.min(buckets - 1, (int) (from / width));
        double bucketEnd = Math.min(to, (bucket + 1) * width);
        area[bucket] += values[i] * (bucketEnd - from);
        if (bucketEnd <= from) {
          break;
        }
        from = bucketEnd;
      }
    }
    double[] xs = new double[buckets];
    double[] ys = new double[buckets];
    for (int b = 0; b < buckets; b++) {
      xs[b] = b * width;
      ys[b] = area[b] / width;
    }
    return new double[][] {xs, ys};
  }
}
