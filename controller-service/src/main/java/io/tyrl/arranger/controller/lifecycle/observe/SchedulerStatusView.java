package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.crd.contract.ScheduleState;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduler-owned part of {@code TYJob.status}, read-only for the controller.
 *
 * @param scheduleState {@code status.scheduleState}, see {@link
 *     ScheduleState#fromWireNameOrUnscheduled}
 * @param allocations {@code status.allocations}: pod name → node name
 * @param reason {@code status.scheduling.reason}
 * @param message {@code status.scheduling.message}
 */
public record SchedulerStatusView(
    ScheduleState scheduleState,
    Map<String, String> allocations,
    Optional<String> reason,
    Optional<String> message) {

  public SchedulerStatusView {
    scheduleState = scheduleState == null ? ScheduleState.UNSCHEDULED : scheduleState;
    allocations = allocations == null ? Map.of() : Map.copyOf(allocations);
    reason = reason == null ? Optional.empty() : reason;
    message = message == null ? Optional.empty() : message;
  }

  /** A job the scheduler has not written anything for yet. */
  public static SchedulerStatusView unscheduled() {
    return new SchedulerStatusView(
        ScheduleState.UNSCHEDULED, Map.of(), Optional.empty(), Optional.empty());
  }

  public Optional<String> allocatedNode(String podName) {
    return Optional.ofNullable(allocations.get(podName));
  }
}
