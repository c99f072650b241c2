package io.tyrl.arranger.scheduler.kube;

import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler configuration in force. It starts from Spring configuration (profiles included) and
 * follows the ConfigMap when one is given; a change applies at the next cycle. An invalid
 * configuration is refused with the parser's message, which names the key, and the last good one
 * stays in force.
 */
public final class SchedulerConfigurationSource {

  private static final Logger log = LoggerFactory.getLogger(SchedulerConfigurationSource.class);

  /**
   * The configuration in force, its text (for the operator's cycle dump) and where it came from.
   */
  public record Applied(
      SchedulerConfiguration configuration, String text, String origin, Instant since) {}

  /** A configuration that was refused. */
  public record Refusal(String origin, String message, Instant at) {}

  private final SchedulerConfigurationParser parser;
  private final Applied base;
  private final AtomicReference<Applied> current;
  private final AtomicReference<Refusal> lastRefusal = new AtomicReference<>();

  public SchedulerConfigurationSource(
      SchedulerConfigurationParser parser,
      SchedulerConfiguration base,
      String baseText,
      String origin) {
    this.parser = parser;
    this.base = new Applied(base, baseText, origin, Instant.now());
    this.current = new AtomicReference<>(this.base);
  }

  public SchedulerConfiguration current() {
    return current.get().configuration();
  }

  public Applied applied() {
    return current.get();
  }

  public Optional<Refusal> lastRefusal() {
    return Optional.ofNullable(lastRefusal.get());
  }

  /**
   * Applies a new configuration text; returns false (and keeps the current one) if it is invalid.
   */
  public boolean offer(String yaml, String origin) {
    try {
      SchedulerConfiguration parsed = parser.parse(yaml);
      current.set(new Applied(parsed, yaml, origin, Instant.now()));
      lastRefusal.set(null);
      log.info("scheduler configuration from {} applied", origin);
      return true;
    } catch (IllegalArgumentException e) {
      lastRefusal.set(new Refusal(origin, e.getMessage(), Instant.now()));
      log.error(
          "scheduler configuration from {} refused, keeping the one from {}: {}",
          origin,
          current.get().origin(),
          e.getMessage());
      return false;
    }
  }

  /** The ConfigMap went away: back to the configuration from Spring. */
  public void revertToBase(String why) {
    current.set(base);
    lastRefusal.set(null);
    log.info("scheduler configuration back to {} ({})", base.origin(), why);
  }
}
