package io.tyrl.arranger.controller.lifecycle;

import java.util.Optional;

/** The controller-owned lifecycle stage of a TYJob ({@code status.stage}). */
public enum Stage {
  PENDING("Pending"),
  STARTING("Starting"),
  RUNNING("Running"),
  RESCHEDULING("Rescheduling"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed");

  private final String wireName;

  Stage(String wireName) {
    this.wireName = wireName;
  }

  /** The value as written in {@code status.stage}. */
  public String wireName() {
    return wireName;
  }

  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED;
  }

  /**
   * Reads {@code status.stage}. A job that has no stage yet (or a value this version does not know)
   * is treated as {@link #PENDING}: planning from Pending re-derives the real stage from the pods
   * and allocations, so a lost or garbled stage heals instead of wedging the job.
   */
  public static Stage fromWireNameOrPending(String value) {
    return fromWireName(value).orElse(PENDING);
  }

  public static Optional<Stage> fromWireName(String value) {
    for (Stage stage : values()) {
      if (stage.wireName.equals(value)) {
        return Optional.of(stage);
      }
    }
    return Optional.empty();
  }
}
