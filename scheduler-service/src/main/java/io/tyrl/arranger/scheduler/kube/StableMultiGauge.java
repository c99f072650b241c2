package io.tyrl.arranger.scheduler.kube;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A multi-gauge whose rows are set each cycle and keep their meters while they exist. Overwriting
 * the rows of a {@link MultiGauge} removes and registers every row's meter again each cycle; a
 * scrape between the two misses the row, and the Prometheus registry may drop a family whose only
 * row is removed for good. Here a row's meter reads a holder that is updated in place; only rows
 * that appear or disappear change the registry.
 */
final class StableMultiGauge {

  private static final class Value {
    private volatile double value;
  }

  private final MultiGauge gauge;
  private final Map<Tags, Value> rows = new ConcurrentHashMap<>();

  StableMultiGauge(MultiGauge.Builder builder, MeterRegistry registry) {
    this.gauge = builder.register(registry);
  }

  /** The rows as they are now; rows not given are removed. */
  synchronized void set(Map<Tags, Double> current) {
    rows.keySet().retainAll(current.keySet());
    current.forEach((tags, value) -> rows.computeIfAbsent(tags, key -> new Value()).value = value);
    List<MultiGauge.Row<?>> registered = new ArrayList<>();
    rows.forEach(
        (tags, holder) -> registered.add(MultiGauge.Row.of(tags, holder, held -> held.value)));
    gauge.register(registered, false);
  }
}
