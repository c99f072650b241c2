package io.tyrl.arranger.testing.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition by polling it, for code outside tests (no Awaitility on this classpath).
 */
final class Poll {

  private Poll() {}

  /**
   * @return whether the condition held before the timeout
   */
  static boolean until(BooleanSupplier condition, Duration timeout, Duration interval) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      if (condition.getAsBoolean()) {
        return true;
      }
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      sleep(interval);
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
