package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StableMultiGaugeTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final StableMultiGauge gauge =
      new StableMultiGauge(MultiGauge.builder("queue.pending"), registry);

  @Test
  void aRowKeepsItsMeterAcrossCyclesAndShowsTheLatestValue() {
    gauge.set(Map.of(Tags.of("queue", "a"), 3.0));
    Gauge first = registry.get("queue.pending").tag("queue", "a").gauge();

    gauge.set(Map.of(Tags.of("queue", "a"), 5.0, Tags.of("queue", "b"), 1.0));

    Gauge again = registry.get("queue.pending").tag("queue", "a").gauge();
    assertThat(again).as("the same meter, never removed and registered again").isSameAs(first);
    assertThat(again.value()).isEqualTo(5.0);
    assertThat(registry.get("queue.pending").tag("queue", "b").gauge().value()).isEqualTo(1.0);
  }

  @Test
  void aRowNoLongerGivenIsRemoved() {
    gauge.set(Map.of(Tags.of("queue", "a"), 3.0, Tags.of("queue", "b"), 1.0));

    gauge.set(Map.of(Tags.of("queue", "b"), 2.0));

    assertThat(registry.find("queue.pending").tag("queue", "a").gauge()).isNull();
    assertThat(registry.get("queue.pending").tag("queue", "b").gauge().value()).isEqualTo(2.0);
  }
}
