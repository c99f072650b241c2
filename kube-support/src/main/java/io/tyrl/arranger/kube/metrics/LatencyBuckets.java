package io.tyrl.arranger.kube.metrics;

import java.time.Duration;
import java.util.stream.DoubleStream;

/**
 * Fixed histogram bucket boundaries for the services' latency metrics. Fixed buckets, not
 * client-side percentiles: a dashboard sums {@code _bucket} series over replicas and takes {@code
 * histogram_quantile} of the sum, which percentiles computed in each JVM cannot give. The
 * boundaries are the same on every replica and every version, so series can be aggregated across a
 * rolling upgrade.
 */
public final class LatencyBuckets {

  /**
   * A scheduling cycle or a reconcile: 1 ms to about 16 s, doubling (kube-scheduler's attempt
   * buckets).
   */
  public static final Duration[] CYCLE = exponential(0.001, 2, 15);

  /** One action or one plugin's session hook: 10 µs to about 5 s. */
  public static final Duration[] STEP = exponential(0.00001, 2.5, 15);

  /** A job's wait: creation to placement or to Running, 100 ms to 2 h. */
  public static final Duration[] JOB =
      seconds(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200);

  /** Work-queue waits and work (client-go's: 10 ns to 10 s by factors of 10). */
  public static final Duration[] WORK_QUEUE = exponential(0.00000001, 10, 10);

  /** API requests (client-go's {@code rest_client_request_duration_seconds}). */
  public static final Duration[] REST_CLIENT =
      seconds(0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60);

  private LatencyBuckets() {}

  private static Duration[] exponential(double startSeconds, double factor, int count) {
    return seconds(
        DoubleStream.iterate(startSeconds, value -> value * factor).limit(count).toArray());
  }

  private static Duration[] seconds(double... values) {
    return DoubleStream.of(values)
        .mapToObj(value -> Duration.ofNanos(Math.round(value * 1e9)))
        .toArray(Duration[]::new);
  }
}
