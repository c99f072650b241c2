package io.tyrl.arranger.kube.metrics;

import io.kubernetes.client.extended.workqueue.DefaultWorkQueue;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * client-java's work queue (one worker per key at a time, repeated adds of a waiting key collapsed)
 * with client-go's work-queue metrics, reported to {@link WorkQueueMetrics}.
 *
 * <p>Why not {@code DefaultRateLimitingQueue}: its delayed adds reach the queue through a
 * non-virtual call, so no subclass sees them, and a wrapper could not tell a collapsed add from a
 * new one without racing the queue's own lock. Here the metrics are kept under the queue's own
 * monitor (every override is {@code synchronized} on it, and {@code get} waits inside it), so depth
 * and latencies are exact. Delays are timers on the given scheduler; the rate limiter is
 * client-java's.
 */
public final class MeteredWorkQueue<T> extends DefaultWorkQueue<T> implements RateLimitingQueue<T> {

  private final ScheduledExecutorService clock;
  private final RateLimiter<T> rateLimiter;
  private final WorkQueueMetrics metrics;

  /** Added and not yet handed to a worker (the queue's "dirty" set): the depth. */
  private final Set<T> waiting = new HashSet<>();

  private final Map<T, Long> addedAt = new HashMap<>();
  private final Map<T, Long> startedAt = new HashMap<>();

  MeteredWorkQueue(
      ScheduledExecutorService clock, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics) {
    this.clock = clock;
    this.rateLimiter = rateLimiter;
    this.metrics = metrics;
  }

  @Override
  public synchronized void add(T item) {
    if (!isShuttingDown() && waiting.add(item)) {
      metrics.added();
      addedAt.putIfAbsent(item, System.nanoTime());
    }
    super.add(item);
  }

  @Override
  public synchronized T get() throws InterruptedException {
    T item = super.get();
    if (item != null) {
      waiting.remove(item);
      long now = System.nanoTime();
      startedAt.put(item, now);
      Long added = addedAt.remove(item);
      if (added != null) {
        metrics.waited(now - added);
      }
    }
    return item;
  }

  @Override
  public synchronized void done(T item) {
    Long started = startedAt.remove(item);
    if (started != null) {
      metrics.worked(System.nanoTime() - started);
    }
    super.done(item);
  }

  @Override
  public void addAfter(T item, Duration delay) {
    if (isShuttingDown()) {
      return;
    }
    if (delay.isZero() || delay.isNegative()) {
      add(item);
      return;
    }
    try {
      clock.schedule(() -> add(item), delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopped) {
      // The clock stops only with the queue's term: nothing would take the item any more.
    }
  }

  @Override
  public void addRateLimited(T item) {
    metrics.retried();
    addAfter(item, rateLimiter.when(item));
  }

  @Override
  public void forget(T item) {
    rateLimiter.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return rateLimiter.numRequeues(item);
  }

  synchronized int depth() {
    return waiting.size();
  }

  /**
   * Seconds of work in progress: the sum over the keys being worked on, and the longest of them.
   */
  synchronized double[] unfinishedWork() {
    long now = System.nanoTime();
    double total = 0;
    double longest = 0;
    for (long started : startedAt.values()) {
      double seconds = (now - started) / 1e9;
      total += seconds;
      longest = Math.max(longest, seconds);
    }
    return new double[] {total, longest};
  }
}
