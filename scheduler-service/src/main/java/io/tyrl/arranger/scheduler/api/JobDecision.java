package io.tyrl.arranger.scheduler.api;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cycle decided for one job: its schedule state, pod name → node for every placed pod, and —
 * when the job is not fully placed — a reason code and a message for {@code status.scheduling}.
 *
 * @param reason        null when every pod is placed
 * @param reservedSince when a NonStrict partial reservation began (to be written back and returned in
 *                      the next snapshot); null when the job holds no partial reservation
 */
public record JobDecision(ScheduleState state, Map<String, String> allocations, ReasonCode reason, String message,
    Instant reservedSince) {

  public JobDecision {
    Objects.requireNonNull(state, "state");
    allocations = Map.copyOf(allocations);
    message = message == null ? "" : message;
  }

  public Optional<ReasonCode> reasonIfAny() {
    return Optional.ofNullable(reason);
  }
}
