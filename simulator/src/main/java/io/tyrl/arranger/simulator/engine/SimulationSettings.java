package io.tyrl.arranger.simulator.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How the simulated cluster behaves around the scheduler.
 *
 * @param period the scheduler's cycle period: cycles happen at multiples of it
 * @param podStartup from the scheduler placing a job's minimum to its pods running (the controller
 *     creating the leader, then the workers, and the kubelet starting them)
 * @param podTermination how long an evicted pod keeps its room (graceful termination)
 * @param deadlockAfter a job holding part of its gang (some pods placed, minimum not) for longer
 *     than its waitTime, or than this when it has none, counts as a gang deadlock
 * @param drainLimit how long after the last submission the run goes on for jobs to finish
 * @param cycleOnChange whether Arranger's configurations also get a cycle soon after each change,
 *     as the service's loop does ({@code arranger.scheduler.cycle-on-change}); the baseline never
 *     does
 * @param minCycleInterval the least pause after a cycle before one started by a change ({@code
 *     arranger.scheduler.min-cycle-interval}); cycles take no simulated time
 */
public record SimulationSettings(
    Duration period,
    Duration podStartup,
    Duration podTermination,
    Duration deadlockAfter,
    Duration drainLimit,
    boolean cycleOnChange,
    Duration minCycleInterval) {

  /** The service's own defaults: a 1 s period, cycles on change no sooner than 100 ms apart. */
  public static final SimulationSettings DEFAULTS =
      new SimulationSettings(
          Duration.ofSeconds(1),
          Duration.ofSeconds(5),
          Duration.ofSeconds(5),
          Duration.ofMinutes(10),
          Duration.ofHours(48),
          true,
          Duration.ofMillis(100));

  public SimulationSettings {
    requirePositive(period, "period");
    Objects.requireNonNull(podStartup, "podStartup");
    Objects.requireNonNull(podTermination, "podTermination");
    if (podStartup.isNegative() || podTermination.isNegative()) {
      throw new IllegalArgumentException("podStartup and podTermination must not be negative");
    }
    requirePositive(deadlockAfter, "deadlockAfter");
    requirePositive(drainLimit, "drainLimit");
    requirePositive(minCycleInterval, "minCycleInterval");
  }

  /** The same settings with cycles only every period (the service with cycle-on-change off). */
  public SimulationSettings periodicOnly() {
    return new SimulationSettings(
        period, podStartup, podTermination, deadlockAfter, drainLimit, false, minCycleInterval);
  }

  private static void requirePositive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  public double periodSeconds() {
    return period.toNanos() / 1e9;
  }
}
