package io.tyrl.arranger.kube.events;

import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Instant;

/**
 * An Event as it must stand on the API server after one write: created when {@code count} is 1,
 * otherwise patched ({@code count}, {@code lastTimestamp}, {@code message}) — or created whole,
 * with this count, when the Event to patch no longer exists (expired by the API server's event TTL,
 * or never written because an earlier write was dropped).
 */
public record RecordedEvent(
    String name,
    InvolvedObject object,
    EventType type,
    String reason,
    String message,
    int count,
    Instant firstTimestamp,
    Instant lastTimestamp) {

  public boolean isUpdate() {
    return count > 1;
  }

  public String namespace() {
    return object.eventNamespace();
  }
}
