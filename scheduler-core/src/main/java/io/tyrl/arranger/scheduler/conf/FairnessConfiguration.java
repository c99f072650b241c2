package io.tyrl.arranger.scheduler.conf;

import java.time.Duration;

/**
 * Fairness over time ({@code fairness} in the scheduler configuration): how past usage adjusts the
 * split of what is above the guarantees, and whether it orders the jobs inside a leaf queue.
 *
 * @param halfLife how long until a second of past usage counts half
 * @param window null = none; else usage older than this is forgotten (to within a twelfth of it)
 * @param strength {@code k}: 0 splits by weight alone, as without history; the higher, the more a
 *     queue that used more than its weight's part gives up to one that used less
 * @param namespaceOrder whether, inside a leaf queue, the jobs of the namespace that used least
 *     come first (before the plugins' job order)
 */
public record FairnessConfiguration(
    Duration halfLife, Duration window, double strength, boolean namespaceOrder) {

  public static final Duration DEFAULT_HALF_LIFE = Duration.ofHours(24);
  public static final double DEFAULT_STRENGTH = 10;

  public static final Duration MIN_HALF_LIFE = Duration.ofMinutes(1);
  public static final Duration MAX_HALF_LIFE = Duration.ofDays(365);
  public static final double MAX_STRENGTH = 100;

  /** What applies when the configuration says nothing about fairness. */
  public static final FairnessConfiguration DEFAULT =
      new FairnessConfiguration(DEFAULT_HALF_LIFE, null, DEFAULT_STRENGTH, false);

  /** Past usage kept but not counted: the split by weight alone. */
  public static final FairnessConfiguration OFF =
      new FairnessConfiguration(DEFAULT_HALF_LIFE, null, 0, false);

  public FairnessConfiguration {
    if (halfLife == null
        || halfLife.compareTo(MIN_HALF_LIFE) < 0
        || halfLife.compareTo(MAX_HALF_LIFE) > 0) {
      throw new InvalidConfigurationException(
          "fairness.halfLife: expected a duration within 1m..8760h, got " + halfLife);
    }
    if (window != null
        && (window.compareTo(MIN_HALF_LIFE) < 0 || window.compareTo(MAX_HALF_LIFE) > 0)) {
      throw new InvalidConfigurationException(
          "fairness.window: expected a duration within 1m..8760h, got " + window);
    }
    if (!(strength >= 0 && strength <= MAX_STRENGTH)) {
      throw new InvalidConfigurationException(
          "fairness.strength: expected a number within 0.." + MAX_STRENGTH + ", got " + strength);
    }
  }

  /** True when past usage changes shares. */
  public boolean adjustsShares() {
    return strength > 0;
  }
}
