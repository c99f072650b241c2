package io.tyrl.arranger.controller.app;

import io.tyrl.arranger.controller.kube.InformerCache;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of the readiness group: DOWN until the informers' first list is complete. It keeps readiness
 * honest on its own, whatever readiness state events say at start-up.
 */
final class InformersHealthIndicator implements HealthIndicator {

  private final InformerCache cache;

  InformersHealthIndicator(InformerCache cache) {
    this.cache = cache;
  }

  @Override
  public Health health() {
    return cache.hasSynced()
        ? Health.up().withDetail("informers", "synced").build()
        : Health.down()
            .withDetail("informers", "TYJob and pod informers have not completed their first list")
            .build();
  }
}
