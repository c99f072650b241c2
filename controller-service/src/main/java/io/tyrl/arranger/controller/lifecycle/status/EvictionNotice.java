package io.tyrl.arranger.controller.lifecycle.status;

import java.util.List;
import java.util.Objects;

/**
 * The note {@code status.eviction} holds once pods of the job are being evicted for another job:
 * written by the controller just before it deletes them, so that the job's own plan can tell an
 * eviction from a failure even when the pods are already gone by the time it looks.
 *
 * @param reason {@code Preempted} or {@code Reclaimed}
 * @param message why, naming the job that takes the room, e.g. {@code preempted by rl/high
 *     (priority 8 > 5)}
 * @param pods the names of the evicted pods
 */
public record EvictionNotice(String reason, String message, List<String> pods) {

  public EvictionNotice {
    Objects.requireNonNull(reason, "reason");
    message = Objects.requireNonNullElse(message, "");
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  public boolean names(String podName) {
    return pods.contains(podName);
  }
}
