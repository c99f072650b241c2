package io.tyrl.arranger.scheduler.framework;

import java.time.Duration;

/**
 * When the next scheduling cycle starts. Every {@code period} after the last one ended, as
 * Volcano's loop does; and, with {@code cycleOnChange}, sooner when a change that may let a job be
 * placed was seen (a job submitted, room freed, a node or Queue changed) — but never sooner than
 * {@code minInterval} after the last cycle ended, nor sooner than the last cycle lasted, so that a
 * burst of changes cannot keep the scheduler busy more than half the time. The service's loop and
 * the simulator both follow it.
 */
public record CyclePacing(Duration period, boolean cycleOnChange, Duration minInterval) {

  public CyclePacing {
    requirePositive(period, "period");
    requirePositive(minInterval, "minInterval");
  }

  /**
   * Nanoseconds from the end of a cycle that lasted {@code cycleNanos} to the start of the next.
   */
  public long delayNanos(long cycleNanos, boolean changeSeen) {
    long periodic = period.toNanos();
    if (!cycleOnChange || !changeSeen) {
      return periodic;
    }
    return Math.min(periodic, Math.max(minInterval.toNanos(), cycleNanos));
  }

  private static void requirePositive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
