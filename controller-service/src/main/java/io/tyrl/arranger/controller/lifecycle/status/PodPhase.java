package io.tyrl.arranger.controller.lifecycle.status;

import java.util.Optional;

/** A pod's {@code status.phase}. */
public enum PodPhase {
  PENDING("Pending"),
  RUNNING("Running"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed"),
  UNKNOWN("Unknown");

  private final String wireName;

  PodPhase(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** A pod without a phase has just been created and not yet seen by the kubelet: Pending. */
  public static PodPhase fromWireNameOrPending(String value) {
    return fromWireName(value).orElse(value == null || value.isEmpty() ? PENDING : UNKNOWN);
  }

  public static Optional<PodPhase> fromWireName(String value) {
    for (PodPhase phase : values()) {
      if (phase.wireName.equals(value)) {
        return Optional.of(phase);
      }
    }
    return Optional.empty();
  }
}
