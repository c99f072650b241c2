package io.tyrl.arranger.controller.lifecycle.status;

import java.util.Optional;

/**
 * {@code status.leader}.
 *
 * <p>{@code phase} is present only if the leader pod existed when the status was last written. The
 * planner relies on it to tell a leader that was lost (it had been seen, now it is gone) from one
 * whose create has not reached the cache yet, so the adapter must write an absent phase as JSON
 * {@code null}.
 *
 * @param restarts how often the leader was lost and recreated, counted by the controller
 */
public record LeaderSummary(
    Optional<String> pod,
    Optional<String> node,
    Optional<String> address,
    Optional<PodPhase> phase,
    int restarts) {

  public LeaderSummary {
    pod = pod == null ? Optional.empty() : pod;
    node = node == null ? Optional.empty() : node;
    address = address == null ? Optional.empty() : address;
    phase = phase == null ? Optional.empty() : phase;
  }

  public static LeaderSummary none() {
    return new LeaderSummary(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 0);
  }

  public boolean wasObserved() {
    return phase.isPresent();
  }
}
