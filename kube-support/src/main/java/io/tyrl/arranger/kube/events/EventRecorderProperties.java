package io.tyrl.arranger.kube.events;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the {@link EventRecorder} correlates and writes Events ({@code arranger.events.*}). The
 * correlation defaults are client-go's ({@code tools/record/events_cache.go}).
 *
 * @param queueCapacity writes waiting to be sent; a write that finds the queue full is dropped and
 *     counted ({@code arranger_events_total{result="dropped"}})
 * @param correlationWindow an identical Event (same object, type, reason and message) seen again
 *     within this time of its last occurrence is counted on the existing Event; similar Events
 *     (same object, type and reason) are aggregated when {@code maxDistinctMessages} of them occur
 *     with no gap longer than this
 * @param maxDistinctMessages from this many different messages for one object, type and reason
 *     within the window on, they are combined into one Event ("(combined from similar events): …")
 * @param spamBurst writes allowed per object at once (token bucket)
 * @param spamRefillPeriod one more write per object allowed per this period
 * @param cacheSize entries kept by each correlation cache (least recently used go first)
 * @param maxMessageLength longer messages are cut, with "..." (events.k8s.io's limit for a note)
 * @param maxAttempts attempts per write, for transport errors, 429 and 5xx
 * @param retryInitialDelay pause before the first retry, doubling up to {@code retryMaxDelay}
 */
@ConfigurationProperties("arranger.events")
public record EventRecorderProperties(
    @DefaultValue("1000") int queueCapacity,
    @DefaultValue("10m") Duration correlationWindow,
    @DefaultValue("10") int maxDistinctMessages,
    @DefaultValue("25") int spamBurst,
    @DefaultValue("5m") Duration spamRefillPeriod,
    @DefaultValue("4096") int cacheSize,
    @DefaultValue("1024") int maxMessageLength,
    @DefaultValue("4") int maxAttempts,
    @DefaultValue("200ms") Duration retryInitialDelay,
    @DefaultValue("2s") Duration retryMaxDelay) {

  public EventRecorderProperties {
    if (queueCapacity < 1) {
      throw new IllegalArgumentException(
          "arranger.events.queue-capacity must be at least 1, got " + queueCapacity);
    }
    if (correlationWindow.isNegative() || correlationWindow.isZero()) {
      throw new IllegalArgumentException(
          "arranger.events.correlation-window must be positive, got " + correlationWindow);
    }
    if (maxDistinctMessages < 2) {
      throw new IllegalArgumentException(
          "arranger.events.max-distinct-messages must be at least 2, got " + maxDistinctMessages);
    }
    if (spamBurst < 1) {
      throw new IllegalArgumentException(
          "arranger.events.spam-burst must be at least 1, got " + spamBurst);
    }
    if (spamRefillPeriod.isNegative() || spamRefillPeriod.isZero()) {
      throw new IllegalArgumentException(
          "arranger.events.spam-refill-period must be positive, got " + spamRefillPeriod);
    }
    if (cacheSize < 1) {
      throw new IllegalArgumentException(
          "arranger.events.cache-size must be at least 1, got " + cacheSize);
    }
    if (maxMessageLength < 16) {
      throw new IllegalArgumentException(
          "arranger.events.max-message-length must be at least 16, got " + maxMessageLength);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException(
          "arranger.events.max-attempts must be at least 1, got " + maxAttempts);
    }
    if (retryInitialDelay.isNegative()
        || retryInitialDelay.isZero()
        || retryMaxDelay.compareTo(retryInitialDelay) < 0) {
      throw new IllegalArgumentException(
          "arranger.events.retry-initial-delay must be positive and at most retry-max-delay, got "
              + retryInitialDelay
              + " and "
              + retryMaxDelay);
    }
  }

  /** client-go's correlation, a queue of 1000 writes, 4 attempts from 200 ms. */
  public static EventRecorderProperties defaults() {
    return new EventRecorderProperties(
        1000,
        Duration.ofMinutes(10),
        10,
        25,
        Duration.ofMinutes(5),
        4096,
        1024,
        4,
        Duration.ofMillis(200),
        Duration.ofSeconds(2));
  }
}
