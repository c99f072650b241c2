package io.tyrl.arranger.kube.events;

import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Decides what one occurrence of an Event becomes on the API server, by client-go's rules ({@code
 * EventCorrelator} in {@code tools/record/events_cache.go}), in three steps:
 *
 * <ol>
 *   <li><b>Aggregate.</b> Occurrences of one object, type and reason are <i>similar</i>. Their
 *       distinct messages are remembered while similar occurrences keep coming with no gap longer
 *       than the window. Once {@code maxDistinctMessages} distinct messages are remembered, the
 *       occurrence is recorded on one combined Event of that object, type and reason whose message
 *       is {@value #COMBINED_PREFIX} followed by the latest message (and one remembered message is
 *       forgotten, so that the set stays bounded, as client-go's {@code PopAny} does).
 *   <li><b>Count.</b> An occurrence identical to one recorded before (same object, type, reason and
 *       message, or the same combined Event) within the window of its last occurrence increments
 *       that Event's {@code count} and moves its {@code lastTimestamp}: one PATCH. Otherwise it
 *       starts a new Event (a create) with count 1. client-go's logger has no window of its own (an
 *       LRU cache only); the window here also keeps a PATCH from usually meeting an Event the API
 *       server has already expired (its {@code --event-ttl}, 1 h by default).
 *   <li><b>Spam filter.</b> Per object, a token bucket of {@code spamBurst} writes refilled by one
 *       every {@code spamRefillPeriod}: an occurrence finding it empty is not written. It was
 *       counted in step 2 all the same, so the next write carries every occurrence in its count.
 * </ol>
 *
 * <p>Pure and in memory: no I/O, time comes in as an argument. Thread-safe; each call takes a few
 * hash lookups. Caches are bounded, least recently used entries going first.
 */
public final class EventCorrelator {

  public static final String COMBINED_PREFIX = "(combined from similar events): ";

  /** What an occurrence becomes. */
  public sealed interface Outcome {
    /** Write this (a create when its count is 1, else a patch). */
    record Write(RecordedEvent event) implements Outcome {}

    /** Counted, but not written now: the object has used up its writes (spam filter). */
    record Skip(RecordedEvent counted) implements Outcome {}
  }

  private record Observation(String name, int count, Instant first, Instant last) {}

  private static final class Similar {
    final LinkedHashSet<String> messages = new LinkedHashSet<>();
    Instant last;
  }

  private static final class TokenBucket {
    double tokens;
    Instant refilled;

    TokenBucket(int burst, Instant now) {
      tokens = burst;
      refilled = now;
    }

    boolean tryTake(Instant now, int burst, Duration refillPeriod) {
      if (now.isAfter(refilled)) {
        double elapsed = Duration.between(refilled, now).toNanos();
        tokens = Math.min(burst, tokens + elapsed / refillPeriod.toNanos());
        refilled = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    }
  }

  private final Duration window;
  private final int maxDistinctMessages;
  private final int spamBurst;
  private final Duration spamRefillPeriod;
  private final Function<InvolvedObject, String> names;
  private final Map<String, Similar> similar;
  private final Map<String, Observation> observations;
  private final Map<String, TokenBucket> buckets;

  /**
   * @param names names a new Event of an object ({@code <object>.<unique suffix>}, as client-go
   *     does)
   */
  public EventCorrelator(EventRecorderProperties settings, Function<InvolvedObject, String> names) {
    this.window = settings.correlationWindow();
    this.maxDistinctMessages = settings.maxDistinctMessages();
    this.spamBurst = settings.spamBurst();
    this.spamRefillPeriod = settings.spamRefillPeriod();
    this.names = Objects.requireNonNull(names, "names");
    this.similar = lru(settings.cacheSize());
    this.observations = lru(settings.cacheSize());
    this.buckets = lru(settings.cacheSize());
  }

  public synchronized Outcome correlate(
      InvolvedObject object, EventType type, String reason, String message, Instant now) {
    String similarKey = object.key() + "\u0000" + type.wireName() + "\u0000" + reason;
    Similar group = similar.get(similarKey);
    if (group == null || Duration.between(group.last, now).compareTo(window) > 0) {
      group = new Similar();
    }
    group.messages.add(message);
    group.last = now;
    similar.put(similarKey, group);

    String key;
    String text;
    if (group.messages.size() < maxDistinctMessages) {
      key = similarKey + "\u0000" + message;
      text = message;
    } else {
      Iterator<String> eldest = group.messages.iterator();
      eldest.next();
      eldest.remove();
      key = similarKey + "\u0001combined";
      text = COMBINED_PREFIX + message;
    }

    Observation last = observations.get(key);
    Observation next =
        last != null && Duration.between(last.last(), now).compareTo(window) <= 0
            ? new Observation(last.name(), last.count() + 1, last.first(), now)
            : new Observation(names.apply(object), 1, now, now);
    observations.put(key, next);
    RecordedEvent event =
        new RecordedEvent(next.name(), object, type, reason, text, next.count(), next.first(), now);

    TokenBucket bucket = buckets.get(object.key());
    if (bucket == null) {
      bucket = new TokenBucket(spamBurst, now);
    }
    buckets.put(object.key(), bucket);
    return bucket.tryTake(now, spamBurst, spamRefillPeriod)
        ? new Outcome.Write(event)
        : new Outcome.Skip(event);
  }

  private static <V> Map<String, V> lru(int size) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > size;
      }
    };
  }
}
