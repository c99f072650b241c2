package io.tyrl.arranger.scheduler.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one cycle: a decision per job (keyed by {@code namespace/name}), queue figures,
 * and the victims chosen by preemption and reclaim, keyed by the job they make room for (its {@code
 * namespace/name}). A preemptor waiting for its victims has a decision with reason {@link
 * ReasonCode#WAITING_FOR_VICTIMS} and no allocations for the pods that wait. {@code order} is the
 * order the cycle ended with ({@link ServiceOrder}), which the operator's view counts positions
 * from.
 */
public record CycleResult(
    Instant time,
    Map<String, JobDecision> decisions,
    Map<String, QueueSummary> queues,
    Duration elapsed,
    Map<String, List<Victim>> victims,
    ServiceOrder order) {

  public CycleResult {
    order = order == null ? ServiceOrder.NONE : order;
    decisions = Map.copyOf(decisions);
    queues = Map.copyOf(queues);
    Map<String, List<Victim>> copy = new LinkedHashMap<>();
    (victims == null ? Map.<String, List<Victim>>of() : victims)
        .forEach((key, list) -> copy.put(key, List.copyOf(list)));
    victims = Collections.unmodifiableMap(copy);
  }

  /** A cycle that chose no victims (the shape before preemption existed). */
  public CycleResult(
      Instant time,
      Map<String, JobDecision> decisions,
      Map<String, QueueSummary> queues,
      Duration elapsed) {
    this(time, decisions, queues, elapsed, Map.of(), ServiceOrder.NONE);
  }

  /** A cycle that recorded no service order. */
  public CycleResult(
      Instant time,
      Map<String, JobDecision> decisions,
      Map<String, QueueSummary> queues,
      Duration elapsed,
      Map<String, List<Victim>> victims) {
    this(time, decisions, queues, elapsed, victims, ServiceOrder.NONE);
  }

  public JobDecision decision(String jobKey) {
    JobDecision decision = decisions.get(jobKey);
    if (decision == null) {
      throw new IllegalArgumentException("no decision for job " + jobKey);
    }
    return decision;
  }

  /** The victims chosen in this cycle for one preemptor; empty when none. */
  public List<Victim> victimsFor(String preemptorJobKey) {
    return victims.getOrDefault(preemptorJobKey, List.of());
  }

  /** Every victim of this cycle, whichever job it makes room for. */
  public List<Victim> allVictims() {
    return victims.values().stream().flatMap(List::stream).toList();
  }
}
