package io.tyrl.arranger.controller.kube;

import io.tyrl.arranger.kube.ReadinessCheck;

/** Readiness: the TYJob and pod informers have completed their first list. */
public final class InformersSynced implements ReadinessCheck {

  private final InformerCache cache;

  public InformersSynced(InformerCache cache) {
    this.cache = cache;
  }

  @Override
  public String name() {
    return "controller informers synced";
  }

  @Override
  public boolean ready() {
    return cache.hasSynced();
  }
}
