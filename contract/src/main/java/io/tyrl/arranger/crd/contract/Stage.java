package io.tyrl.arranger.crd.contract;

import java.util.Optional;

/**
 * The lifecycle stage of a TYJob ({@code status.stage}): written by the controller, read by the
 * scheduler to know whether gang rules still apply and which jobs still take placements.
 */
public enum Stage {
  /** Created, waiting for the scheduler to place its minimum for the first time. */
  PENDING("Pending"),
  /**
   * The minimum is placed and the leader is being started; it has not run yet (since creation or a
   * reschedule).
   */
  STARTING("Starting"),
  /**
   * The minimum has run: gang rules no longer apply, and a lost pod is placed back like an elastic
   * one.
   */
  RUNNING("Running"),
  /**
   * The job lost its leader (or its minimum) and gave everything back; it waits for its minimum
   * again.
   */
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

  /** The job has ended: it takes no placements and its lifecycle is over. */
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
