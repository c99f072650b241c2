package io.tyrl.arranger.kube.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.IntSupplier;

/**
 * {@code arranger_informer_objects{resource}}: the objects an informer's cache holds, per resource,
 * in both services — what a long run watches for a cache that grows without the cluster growing.
 */
public final class InformerObjects {

  private InformerObjects() {}

  /**
   * Registers the gauge of one informer's cache; read at each scrape. The gauge holds the supplier
   * strongly: callers pass a lambda nobody else keeps, and a weakly held one is collected at the
   * first full collection, after which the gauge reads NaN.
   */
  public static void register(MeterRegistry registry, String resource, IntSupplier cached) {
    Gauge.builder("arranger.informer.objects", cached, IntSupplier::getAsInt)
        .strongReference(true)
        .tag("resource", resource)
        .description("objects the informer's cache holds")
        .register(registry);
  }
}
