package io.tyrl.arranger.scheduler.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The outcome of one cycle: a decision per job (keyed by {@code namespace/name}) and queue figures. */
public record CycleResult(Instant time, Map<String, JobDecision> decisions, Map<String, QueueSummary> queues,
    Duration elapsed) {

  public CycleResult {
    decisions = Map.copyOf(decisions);
    queues = Map.copyOf(queues);
  }

  public JobDecision decision(String jobKey) {
    JobDecision decision = decisions.get(jobKey);
    if (decision == null) {
      throw new IllegalArgumentException("no decision for job " + jobKey);
    }
    return decision;
  }
}
