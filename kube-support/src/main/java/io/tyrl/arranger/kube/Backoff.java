package io.tyrl.arranger.kube;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter, for retrying calls to the API server a bounded number of times.
 */
public record Backoff(Duration initial, Duration max, int maxAttempts) {

  public static final Backoff DEFAULT =
      new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5), 6);

  public Backoff {
    if (initial.compareTo(Duration.ZERO) <= 0 || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max, got initial " + initial + ", max " + max);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException(
          "backoff maxAttempts must be at least 1, got " + maxAttempts);
    }
  }

  /**
   * The pause before retry number {@code retry} (1 for the first retry): doubling, capped, with up
   * to 20 % jitter.
   */
  public Duration delay(int retry) {
    long base = initial.toMillis() << Math.min(retry - 1, 20);
    long capped = Math.min(base, max.toMillis());
    long jitter = (long) (capped * 0.2 * ThreadLocalRandom.current().nextDouble());
    return Duration.ofMillis(capped - jitter);
  }

  public void pause(int retry) throws InterruptedException {
    Thread.sleep(delay(retry).toMillis());
  }
}
