package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.GoDurations;
import io.tyrl.arranger.crd.reasons.TopologyWording;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster's topology as the scheduler's configuration names it ({@code topology.levels}):
 * node-label keys from the widest level to the narrowest ({@code topology.kubernetes.io/zone}, a
 * block, a rack, {@code kubernetes.io/hostname}). A domain of a level is the set of nodes carrying
 * one value of its label; a node without the label is in no domain of that level.
 *
 * @param preferredWait how long a gang whose preferred level has no domain with room for it now
 *     waits for one (holding the likeliest) before it is spread over several ({@code
 *     topology.preferredWait}); zero spreads it at once
 */
public record TopologyLevels(List<String> keys, Duration preferredWait) {

  /**
   * Long enough for a rack to drain a finishing job or two on a busy cluster; short against the
   * hours an RL job runs with its traffic crossing racks if it does not wait.
   */
  public static final Duration DEFAULT_PREFERRED_WAIT = Duration.ofSeconds(30);

  public static final TopologyLevels NONE = new TopologyLevels(List.of());

  /** Levels with the default {@link #preferredWait}. */
  public TopologyLevels(List<String> keys) {
    this(keys, DEFAULT_PREFERRED_WAIT);
  }

  public TopologyLevels {
    keys = List.copyOf(keys);
    preferredWait = preferredWait == null ? DEFAULT_PREFERRED_WAIT : preferredWait;
    if (preferredWait.isNegative()) {
      throw new IllegalArgumentException(
          "topology.preferredWait must not be negative, got " + preferredWait);
    }
    Set<String> seen = new HashSet<>();
    for (String key : keys) {
      if (key == null || key.isBlank()) {
        throw new IllegalArgumentException("a topology level must be a node-label key, was blank");
      }
      if (!seen.add(key)) {
        throw new IllegalArgumentException("topology level " + key + " is listed twice");
      }
    }
  }

  /** {@link #preferredWait} as the configuration writes it ({@code 30s}), for reasons. */
  public String preferredWaitText() {
    return GoDurations.format(preferredWait);
  }

  /** The level's place, 0 for the widest; -1 when it is not a level. */
  public int depth(String level) {
    return keys.indexOf(level);
  }

  /**
   * Why the job's topology cannot be honoured with these levels, naming the field: an unknown
   * level, or a preferred level not narrower than the required one. Empty when it can (always, for
   * a job asking none).
   */
  public Optional<String> problem(JobInfo job) {
    List<String> problems = new ArrayList<>();
    check("spec.topology", job.topology(), job.topology().required(), problems);
    for (Map.Entry<String, TopologyRequest> entry : job.workerSetTopology().entrySet()) {
      check(
          "spec.workerSets[" + entry.getKey() + "].topology",
          entry.getValue(),
          job.topology().required(),
          problems);
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  private void check(
      String field, TopologyRequest request, String jobRequired, List<String> problems) {
    if (request.required() != null && depth(request.required()) < 0) {
      problems.add(TopologyWording.unknownLevel(field + ".required", request.required(), keys));
    }
    if (request.preferred() != null && depth(request.preferred()) < 0) {
      problems.add(TopologyWording.unknownLevel(field + ".preferred", request.preferred(), keys));
      return;
    }
    if (request.preferred() != null
        && jobRequired != null
        && depth(jobRequired) >= 0
        && depth(request.preferred()) <= depth(jobRequired)) {
      problems.add(
          TopologyWording.preferredNotNarrower(
              field + ".preferred", request.preferred(), jobRequired));
    }
  }
}
