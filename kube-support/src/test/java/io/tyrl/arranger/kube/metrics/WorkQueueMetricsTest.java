package io.tyrl.arranger.kube.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueMetricsTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
  private final WorkQueueMetrics metrics = new WorkQueueMetrics(registry, "jobs");
  private final MeteredWorkQueue<String> queue =
      metrics.newQueue(
          clock,
          new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1)));

  @AfterEach
  void stop() {
    queue.shutDown();
    clock.shutdownNow();
  }

  @Test
  void repeatedAddsOfAWaitingKeyCountOnceAndDepthCountsWaitingKeys() throws Exception {
    queue.add("a");
    queue.add("a");
    queue.add("b");

    assertThat(value("workqueue.adds")).isEqualTo(2);
    assertThat(gauge("workqueue.depth")).isEqualTo(2);

    assertThat(queue.get()).isEqualTo("a");
    assertThat(gauge("workqueue.depth")).isEqualTo(1);
    assertThat(registry.get("workqueue.queue.duration").timer().count()).isEqualTo(1);
  }

  @Test
  void workInProgressShowsAsUnfinishedUntilDone() throws Exception {
    queue.add("a");
    String item = queue.get();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> gauge("workqueue.longest.running.processor") > 0);
    assertThat(gauge("workqueue.unfinished.work")).isGreaterThan(0);
    assertThat(registry.get("workqueue.work.duration").timer().count()).isZero();

    queue.done(item);

    assertThat(gauge("workqueue.unfinished.work")).isZero();
    assertThat(gauge("workqueue.longest.running.processor")).isZero();
    assertThat(registry.get("workqueue.work.duration").timer().count()).isEqualTo(1);
  }

  @Test
  void aKeyAddedWhileBeingWorkedOnIsHandedOutAgainAfterDone() throws Exception {
    queue.add("a");
    String item = queue.get();
    queue.add("a");

    assertThat(value("workqueue.adds")).isEqualTo(2);
    assertThat(queue.length())
        .as("not handed to a second worker while the first works on it")
        .isZero();
    queue.done(item);

    assertThat(queue.get()).isEqualTo("a");
    assertThat(registry.get("workqueue.queue.duration").timer().count()).isEqualTo(2);
  }

  @Test
  void rateLimitedAddsCountAsRetriesAndArriveAfterTheirDelay() throws Exception {
    queue.addRateLimited("a");
    queue.addRateLimited("a");

    assertThat(value("workqueue.retries")).isEqualTo(2);
    assertThat(queue.numRequeues("a")).isEqualTo(2);
    assertThat(queue.get()).isEqualTo("a");
    assertThat(value("workqueue.adds")).isEqualTo(1);
    queue.forget("a");
    assertThat(queue.numRequeues("a")).isZero();
  }

  @Test
  void aNewTermsQueueTakesOverTheGauges() throws Exception {
    queue.add("a");
    MeteredWorkQueue<String> next =
        metrics.newQueue(
            clock,
            new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1)));

    assertThat(gauge("workqueue.depth")).isZero();
    next.add("x");
    next.add("y");
    assertThat(gauge("workqueue.depth")).isEqualTo(2);
    assertThat(value("workqueue.adds")).isEqualTo(3);
  }

  @Test
  void prometheusShowsClientGoNamesWithHistogramBuckets() throws Exception {
    queue.add("a");
    queue.done(queue.get());
    queue.addRateLimited("b");

    String scrape = registry.scrape();

    assertThat(scrape)
        .contains(
            "workqueue_depth{name=\"jobs\"}",
            "workqueue_adds_total{name=\"jobs\"}",
            "workqueue_retries_total{name=\"jobs\"} 1",
            "workqueue_queue_duration_seconds_bucket{name=\"jobs\",le=\"10.0\"} 1",
            "workqueue_work_duration_seconds_bucket{name=\"jobs\",le=\"+Inf\"} 1",
            "workqueue_unfinished_work_seconds{name=\"jobs\"}",
            "workqueue_longest_running_processor_seconds{name=\"jobs\"}");
    assertThat(scrape).doesNotContain("quantile=");
  }

  private double value(String counter) {
    return registry.get(counter).counter().count();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
