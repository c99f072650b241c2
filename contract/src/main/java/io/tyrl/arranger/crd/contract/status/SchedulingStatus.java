package io.tyrl.arranger.crd.contract.status;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code status.scheduling}: why the job is not (fully) placed. The scheduler writes it every cycle
 * that changes it; the controller writes its reason and message for a job it refuses (the scheduler
 * no longer writes once the job has ended).
 *
 * @param reason one of {@link io.tyrl.arranger.crd.reasons.SchedulingReasons}, the REASON column
 * @param waitingSince when the current wait for the job's minimum began (a gang's wait time counts
 *     from it)
 */
public record SchedulingStatus(
    Optional<String> reason,
    Optional<String> message,
    Optional<Instant> lastCycleTime,
    Optional<Instant> lastTransitionTime,
    Optional<Instant> waitingSince) {

  private static final String REASON = "reason";
  private static final String MESSAGE = "message";
  private static final String LAST_CYCLE_TIME = "lastCycleTime";
  private static final String LAST_TRANSITION_TIME = "lastTransitionTime";
  private static final String WAITING_SINCE = "waitingSince";

  public SchedulingStatus {
    reason = reason == null ? Optional.empty() : reason;
    message = message == null ? Optional.empty() : message;
    lastCycleTime = lastCycleTime == null ? Optional.empty() : lastCycleTime;
    lastTransitionTime = lastTransitionTime == null ? Optional.empty() : lastTransitionTime;
    waitingSince = waitingSince == null ? Optional.empty() : waitingSince;
  }

  /**
   * As stored; a field that is absent or of the wrong type (or a time that does not parse) is
   * empty.
   */
  public static SchedulingStatus decode(Object scheduling) {
    Map<?, ?> json = PlainValues.map(scheduling);
    return new SchedulingStatus(
        PlainValues.text(json.get(REASON)),
        PlainValues.text(json.get(MESSAGE)),
        PlainValues.instant(json.get(LAST_CYCLE_TIME)),
        PlainValues.instant(json.get(LAST_TRANSITION_TIME)),
        PlainValues.instant(json.get(WAITING_SINCE)));
  }

  /**
   * The merge patch a scheduling cycle writes: reason, message and waiting time as they now stand
   * ({@code null} clears them), the cycle's time, and the transition time only when it moves.
   *
   * @param lastTransitionTime {@code null} to leave the recorded transition time as it is
   */
  public static Map<String, Object> cyclePatch(
      String reason,
      String message,
      Instant lastCycleTime,
      Instant lastTransitionTime,
      Instant waitingSince) {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put(REASON, reason);
    patch.put(MESSAGE, message);
    patch.put(LAST_CYCLE_TIME, lastCycleTime.toString());
    if (lastTransitionTime != null) {
      patch.put(LAST_TRANSITION_TIME, lastTransitionTime.toString());
    }
    patch.put(WAITING_SINCE, waitingSince == null ? null : waitingSince.toString());
    return patch;
  }

  /**
   * The merge patch the controller writes for a job it refuses: its reason and message, nothing
   * else.
   */
  public static Map<String, Object> refusalPatch(String reason, String message) {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put(REASON, reason);
    patch.put(MESSAGE, message);
    return patch;
  }
}
