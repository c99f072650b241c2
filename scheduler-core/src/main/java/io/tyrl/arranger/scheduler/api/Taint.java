package io.tyrl.arranger.scheduler.api;

import java.util.Objects;

/** A node taint; {@code value} is empty when the taint has none. */
public record Taint(String key, String value, TaintEffect effect) {

  /** Kubernetes sets this taint on a node whose Ready condition is not True. */
  public static final String NOT_READY_KEY = "node.kubernetes.io/not-ready";

  public Taint {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("taint key must not be blank");
    }
    value = value == null ? "" : value;
    Objects.requireNonNull(effect, "taint effect of " + key);
  }

  /** True for effects that keep new pods off the node (PreferNoSchedule only scores). */
  public boolean blocksScheduling() {
    return effect == TaintEffect.NO_SCHEDULE || effect == TaintEffect.NO_EXECUTE;
  }

  /** {@code gpu=a100}, or just the key when there is no value. */
  public String describe() {
    return value.isEmpty() ? key : key + "=" + value;
  }
}
