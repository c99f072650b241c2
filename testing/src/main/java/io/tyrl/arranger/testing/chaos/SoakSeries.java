package io.tyrl.arranger.testing.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The arithmetic of a soak run, kept apart from the processes so that it can be tested: the slope
 * of a per-minute series (least squares, per hour), and a latency quantile from the buckets of a
 * Prometheus histogram summed over a window.
 */
public final class SoakSeries {

  private SoakSeries() {}

  /** One sample of a series: seconds since the run began, and the value. */
  public record Point(double seconds, double value) {}

  /**
   * The least-squares slope of the points, in value per hour; NaN for fewer than two points or
   * points all at one time.
   */
  public static double slopePerHour(List<Point> points) {
    int n = points.size();
    if (n < 2) {
      return Double.NaN;
    }
    double meanT = points.stream().mapToDouble(Point::seconds).average().orElseThrow();
    double meanV = points.stream().mapToDouble(Point::value).average().orElseThrow();
    double covariance = 0;
    double variance = 0;
    for (Point p : points) {
      covariance += (p.seconds() - meanT) * (p.value() - meanV);
      variance += (p.seconds() - meanT) * (p.seconds() - meanT);
    }
    return variance == 0 ? Double.NaN : covariance / variance * Duration.ofHours(1).toSeconds();
  }

  /** One sample of a replica's series, with the role the replica held when it was taken. */
  public record RolePoint(double seconds, double value, boolean leader) {}

  /**
   * A replica's samples cut where its role changed (a standby taking over from a killed leader
   * starts the leader's work: writers, creators, caches of what it now decides), each stretch
   * without its first {@code settleSeconds} (a JVM warming up, or the new leader's first work), and
   * kept only when what is left spans at least {@code minSpanSeconds}: a slope is a leak's only
   * over a stretch of steady work.
   */
  public static List<List<Point>> steadyStretches(
      List<RolePoint> points, double settleSeconds, double minSpanSeconds) {
    List<List<Point>> stretches = new ArrayList<>();
    int from = 0;
    for (int i = 1; i <= points.size(); i++) {
      if (i == points.size() || points.get(i).leader() != points.get(from).leader()) {
        double settled = points.get(from).seconds() + settleSeconds;
        List<Point> stretch = new ArrayList<>();
        for (RolePoint point : points.subList(from, i)) {
          if (point.seconds() >= settled) {
            stretch.add(new Point(point.seconds(), point.value()));
          }
        }
        if (stretch.size() >= 2
            && stretch.get(stretch.size() - 1).seconds() - stretch.get(0).seconds()
                >= minSpanSeconds) {
          stretches.add(stretch);
        }
        from = i;
      }
    }
    return stretches;
  }

  /**
   * Cumulative bucket counts ({@code le} in seconds → count) of one histogram scrape minus an
   * earlier one of the same process: what was observed between them.
   */
  public static Map<Double, Double> delta(Map<Double, Double> before, Map<Double, Double> after) {
    Map<Double, Double> delta = new TreeMap<>();
    after.forEach((le, count) -> delta.put(le, count - before.getOrDefault(le, 0.0)));
    return delta;
  }

  /** Sums cumulative bucket counts, bucket by bucket. */
  public static Map<Double, Double> sum(List<Map<Double, Double>> deltas) {
    Map<Double, Double> total = new TreeMap<>();
    deltas.forEach(d -> d.forEach((le, count) -> total.merge(le, count, Double::sum)));
    return total;
  }

  /**
   * The q-quantile, in milliseconds, of cumulative buckets, estimated as Prometheus's {@code
   * histogram_quantile} does: within the first bucket whose count reaches q of the total, linearly
   * between its lower and upper bound (the first bucket's lower bound is 0), as a dashboard over
   * the same series would show it. Beyond the last finite bound ({@code +Inf}) it is that bound.
   * NaN when nothing was observed.
   */
  public static double quantileMillis(Map<Double, Double> cumulative, double q) {
    return quantile(cumulative, q, true);
  }

  /**
   * The upper bound, in milliseconds, of the bucket the q-quantile falls in: what the buckets alone
   * can vouch for, a factor of the bucket width above {@link #quantileMillis} at most.
   */
  public static double quantileBoundMillis(Map<Double, Double> cumulative, double q) {
    return quantile(cumulative, q, false);
  }

  private static double quantile(Map<Double, Double> cumulative, double q, boolean interpolate) {
    List<Map.Entry<Double, Double>> buckets = new ArrayList<>(new TreeMap<>(cumulative).entrySet());
    if (buckets.isEmpty()) {
      return Double.NaN;
    }
    double total = buckets.get(buckets.size() - 1).getValue();
    if (total <= 0) {
      return Double.NaN;
    }
    double rank = q * total;
    double lowerBound = 0;
    double countBelow = 0;
    for (Map.Entry<Double, Double> bucket : buckets) {
      double upperBound = bucket.getKey();
      double count = bucket.getValue();
      if (upperBound == Double.POSITIVE_INFINITY) {
        return 1000 * lowerBound;
      }
      if (count >= rank) {
        double inBucket = count - countBelow;
        if (!interpolate || inBucket <= 0) {
          return 1000 * upperBound;
        }
        return 1000 * (lowerBound + (upperBound - lowerBound) * (rank - countBelow) / inBucket);
      }
      lowerBound = upperBound;
      countBelow = count;
    }
    return 1000 * lowerBound;
  }
}
