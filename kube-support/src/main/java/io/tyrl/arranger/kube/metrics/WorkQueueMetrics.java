package io.tyrl.arranger.kube.metrics;

import io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * client-go's work-queue metrics for one named queue, on {@code /actuator/prometheus} as {@code
 * workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds}, {@code
 * workqueue_work_duration_seconds} (histograms), {@code workqueue_retries_total}, {@code
 * workqueue_unfinished_work_seconds} and {@code workqueue_longest_running_processor_seconds}, each
 * with label {@code name}.
 *
 * <p>Registered once per service; a leader gets a new queue for every term ({@link #newQueue}), and
 * the gauges follow the current one, so no meter is registered twice or left reading a dead queue.
 */
public final class WorkQueueMetrics {

  private final AtomicReference<MeteredWorkQueue<?>> current = new AtomicReference<>();
  private final Counter adds;
  private final Counter retries;
  private final Timer queueDuration;
  private final Timer workDuration;

  public WorkQueueMetrics(MeterRegistry registry, String name) {
    adds =
        Counter.builder("workqueue.adds")
            .description("Adds handled by the work queue")
            .tag("name", name)
            .register(registry);
    retries =
        Counter.builder("workqueue.retries")
            .description("Rate-limited re-adds (retries) of the work queue")
            .tag("name", name)
            .register(registry);
    queueDuration =
        Timer.builder("workqueue.queue.duration")
            .description("How long an item stays in the work queue before a worker takes it")
            .tag("name", name)
            .serviceLevelObjectives(LatencyBuckets.WORK_QUEUE)
            .register(registry);
    workDuration =
        Timer.builder("workqueue.work.duration")
            .description("How long a worker takes to process an item")
            .tag("name", name)
            .serviceLevelObjectives(LatencyBuckets.WORK_QUEUE)
            .register(registry);
    Gauge.builder(
            "workqueue.depth", current, queue -> queue.get() == null ? 0 : queue.get().depth())
        .description("Items waiting in the work queue")
        .tag("name", name)
        .strongReference(true)
        .register(registry);
    Gauge.builder(
            "workqueue.unfinished.work",
            current,
            queue -> queue.get() == null ? 0 : queue.get().unfinishedWork()[0])
        .description(
            "Seconds of work in progress not yet observed by work duration; large values mean stuck workers")
        .baseUnit("seconds")
        .tag("name", name)
        .strongReference(true)
        .register(registry);
    Gauge.builder(
            "workqueue.longest.running.processor",
            current,
            queue -> queue.get() == null ? 0 : queue.get().unfinishedWork()[1])
        .description("Seconds the longest running worker has been processing its item")
        .baseUnit("seconds")
        .tag("name", name)
        .strongReference(true)
        .register(registry);
  }

  /** A new queue whose metrics these are; the gauges read it from now on. */
  public <T> MeteredWorkQueue<T> newQueue(
      ScheduledExecutorService clock, RateLimiter<T> rateLimiter) {
    MeteredWorkQueue<T> queue = new MeteredWorkQueue<>(clock, rateLimiter, this);
    current.set(queue);
    return queue;
  }

  void added() {
    adds.increment();
  }

  void retried() {
    retries.increment();
  }

  void waited(long nanos) {
    queueDuration.record(nanos, TimeUnit.NANOSECONDS);
  }

  void worked(long nanos) {
    workDuration.record(nanos, TimeUnit.NANOSECONDS);
  }
}
