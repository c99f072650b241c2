package io.tyrl.arranger.scheduler.kube;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each waiting job's reason was last announced as an Event, so that a job that keeps waiting
 * for the same reason is announced again every {@code repeatInterval} (as kube-scheduler records
 * every failed attempt) — the recorder then counts the repeats on one Event ({@code x12 over 10m})
 * — but not every cycle. A job first seen by this replica (after a start or a failover) has its
 * reason in its status already: it is announced again only once the interval has passed.
 */
final class PendingAnnouncements {

  private record Announced(String reason, String message, Instant at) {}

  private final Duration repeatInterval;
  private final Map<String, Announced> byJob = new ConcurrentHashMap<>();

  PendingAnnouncements(Duration repeatInterval) {
    this.repeatInterval = repeatInterval;
  }

  /** The job's reason (and message) was announced now. */
  void announced(String jobKey, String reason, String message, Instant now) {
    byJob.put(jobKey, new Announced(reason, message, now));
  }

  /**
   * True, and noted as announced, when the unchanged reason of a waiting job is due to be announced
   * again.
   */
  boolean repeatDue(String jobKey, String reason, String message, Instant now) {
    Announced last = byJob.get(jobKey);
    if (last == null || !last.reason().equals(reason) || !last.message().equals(message)) {
      byJob.put(jobKey, new Announced(reason, message, now));
      return false;
    }
    if (Duration.between(last.at(), now).compareTo(repeatInterval) < 0) {
      return false;
    }
    byJob.put(jobKey, new Announced(reason, message, now));
    return true;
  }

  /** The job no longer waits (placed, failed, ended or gone): nothing to repeat. */
  void forget(String jobKey) {
    byJob.remove(jobKey);
  }

  /** Forgets every job but these. */
  void retain(Set<String> jobKeys) {
    byJob.keySet().retainAll(jobKeys);
  }

  int size() {
    return byJob.size();
  }
}
