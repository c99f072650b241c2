package io.tyrl.arranger.controller.lifecycle.status;

import io.tyrl.arranger.crd.contract.status.StatusFields;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** One entry of {@code status.conditions}. */
public record Condition(
    String type,
    ConditionStatus status,
    String reason,
    String message,
    Optional<Instant> lastTransitionTime) {

  /** Set by the planner to True once the spec passed validation, False with the problems if not. */
  public static final String VALIDATED = "Validated";

  /**
   * True while the stage is Running; False with the reason of the last transition otherwise. The
   * scheduler reads its lastTransitionTime as when the job's minimum started running.
   */
  public static final String RUNNING = StatusFields.RUNNING_CONDITION;

  /**
   * True once the job has ended; its reason tells how (e.g. LeaderSucceeded, RestartLimitExceeded).
   */
  public static final String FINISHED = "Finished";

  /** True while a pod of another owner holds a name the job needs. */
  public static final String POD_NAME_CONFLICT = "PodNameConflict";

  public Condition {
    Objects.requireNonNull(type, "type");
    status = Objects.requireNonNullElse(status, ConditionStatus.UNKNOWN);
    reason = Objects.requireNonNullElse(reason, "");
    message = Objects.requireNonNullElse(message, "");
    lastTransitionTime = lastTransitionTime == null ? Optional.empty() : lastTransitionTime;
  }
}
