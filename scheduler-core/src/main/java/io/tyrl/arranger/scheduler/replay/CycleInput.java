package io.tyrl.arranger.scheduler.replay;

import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.Snapshot;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One cycle's input and outcome: what a replay needs to run the same cycle again, and what it
 * compares against. No secret is part of it: a snapshot holds names, labels, requests and
 * placements, the configuration is the scheduler's YAML.
 *
 * @param time the cycle's clock ({@code now}), which a replay uses again
 * @param configurationOrigin where the configuration came from (the ConfigMap, a profile)
 * @param configuration the configuration's YAML text, as the scheduler parsed it
 * @param decisions what the cycle decided for each job of the snapshot
 */
public record CycleInput(
    Instant time,
    String configurationOrigin,
    String configuration,
    Snapshot snapshot,
    Map<String, JobDecision> decisions) {

  public CycleInput {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(configuration, "configuration");
    Objects.requireNonNull(snapshot, "snapshot");
    decisions = decisions == null ? Map.of() : Map.copyOf(decisions);
  }
}
