package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A queue's guarantee and what it holds above it, per resource, as the cycle reported them; its
 * past usage and the share of the cluster it amounts to.
 */
class SchedulerMetricsQueueGaugesTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SchedulerMetrics metrics = new SchedulerMetrics(registry);

  private static QueueSummary atari(Resource guarantee, Resource allocated, Resource overQuota) {
    return new QueueSummary(
        "atari", Resource.EMPTY, allocated, 0, 0, 1, false, 0, "games", guarantee, overQuota, null);
  }

  private void cycle(QueueSummary... queues) {
    Map<String, QueueSummary> byName = new java.util.HashMap<>();
    for (QueueSummary queue : queues) {
      byName.put(queue.name(), queue);
    }
    metrics.cycleCompleted(
        new CycleResult(Instant.EPOCH, Map.of(), byName, Duration.ZERO), 1_000_000);
  }

  private Double gauge(String name, String resource) {
    Gauge gauge = registry.find(name).tags("queue", "atari", "resource", resource).gauge();
    return gauge == null ? null : gauge.value();
  }

  @Test
  void guaranteeAndOverQuotaArePerQueueAndResourceWithCpuInCores() {
    cycle(
        atari(
            Resource.of("cpu", "32", "memory", "64Gi"),
            Resource.of("cpu", "40500m", "memory", "16Gi"),
            Resource.of("cpu", "8500m")));

    assertThat(gauge("arranger.scheduler.queue.guarantee", "cpu")).isEqualTo(32.0);
    assertThat(gauge("arranger.scheduler.queue.guarantee", "memory"))
        .isEqualTo(64.0 * 1024 * 1024 * 1024);
    assertThat(gauge("arranger.scheduler.queue.over.quota", "cpu")).isEqualTo(8.5);
    assertThat(gauge("arranger.scheduler.queue.over.quota", "memory")).isNull();
  }

  @Test
  void aQueueBackWithinItsGuaranteeLosesItsOverQuotaRow() {
    cycle(atari(Resource.of("cpu", "32"), Resource.of("cpu", "40"), Resource.of("cpu", "8")));
    cycle(atari(Resource.of("cpu", "32"), Resource.of("cpu", "20"), Resource.EMPTY));

    assertThat(gauge("arranger.scheduler.queue.over.quota", "cpu")).isNull();
    assertThat(gauge("arranger.scheduler.queue.guarantee", "cpu")).isEqualTo(32.0);
  }

  @Test
  void pastUsageAndTheClusterShareItAmountsToArePerQueueAndResourceAndAQueueGoneLosesItsRows() {
    DecayedUsage usage =
        new DecayedUsage(
            Instant.EPOCH,
            List.of(
                new DecayedUsage.Slot(
                    Instant.EPOCH, new TreeMap<>(Map.of("nvidia.com/gpu", 7200.0, "cpu", 30.5)))));
    metrics.queueUsage(
        Map.of("atari", Map.of("nvidia.com/gpu", 0.25, "cpu", 0.01)),
        Map.of("atari", new QueueUsage(usage, Map.of())));

    assertThat(gauge("arranger.scheduler.queue.usage", "nvidia.com/gpu")).isEqualTo(7200.0);
    assertThat(gauge("arranger.scheduler.queue.usage", "cpu")).isEqualTo(30.5);
    assertThat(gauge("arranger.scheduler.queue.usage.cluster.share", "nvidia.com/gpu"))
        .isEqualTo(0.25);

    metrics.queueUsage(Map.of(), Map.of());
    assertThat(gauge("arranger.scheduler.queue.usage", "nvidia.com/gpu")).isNull();
  }
}
