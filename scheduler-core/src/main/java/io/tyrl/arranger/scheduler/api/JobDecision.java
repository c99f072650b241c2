package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.ScheduleState;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cycle decided for one job: its schedule state, pod name → node for every placed pod, and —
 * when the job is not fully placed — a reason code and a message for {@code status.scheduling}.
 *
 * @param reason null when every pod is placed
 * @param waitingSince when the job's current wait for its gang minimum began (written back as
 *     {@code status.scheduling.waitingSince} and returned in the next snapshot); null once the
 *     minimum is placed or has run, or when the job failed
 */
public record JobDecision(
    ScheduleState state,
    Map<String, String> allocations,
    ReasonCode reason,
    String message,
    Instant waitingSince) {

  public JobDecision {
    Objects.requireNonNull(state, "state");
    allocations = Map.copyOf(allocations);
    message = message == null ? "" : message;
  }

  public Optional<ReasonCode> reasonIfAny() {
    return Optional.ofNullable(reason);
  }
}
