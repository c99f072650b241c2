package io.tyrl.arranger.kube.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class InformerObjectsTest {

  @Test
  void theGaugeStillReadsTheCacheAfterFullCollectionsThoughNobodyElseHoldsTheSupplier() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AtomicInteger cacheSize = new AtomicInteger(42);
    WeakReference<IntSupplier> supplier = registerUnheld(registry, cacheSize);

    for (int i = 0; i < 5 && supplier.get() != null; i++) {
      System.gc();
    }
    cacheSize.set(43);

    assertThat(supplier.get()).as("the registry keeps the supplier").isNotNull();
    assertThat(registry.get("arranger.informer.objects").tag("resource", "pods").gauge().value())
        .isEqualTo(43.0);
  }

  /** Registers a supplier that only the registry (and a weak reference) holds once this returns. */
  private static WeakReference<IntSupplier> registerUnheld(
      SimpleMeterRegistry registry, AtomicInteger cacheSize) {
    IntSupplier cached = cacheSize::get;
    InformerObjects.register(registry, "pods", cached);
    return new WeakReference<>(cached);
  }
}
