package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The environment variables Arranger adds to every container of a pod it creates, so that an Actor
 * finds its Learner and each pod knows its place in the job. The pod factory only copies {@link
 * #variables()} into the containers.
 *
 * @param variables name → value, in a stable order
 */
public record PodEnvironment(Map<String, String> variables) {

  /** The leader's IP address, as seen when its workers were created. */
  public static final String LEADER_ADDRESS = "TYJOB_LEADER_ADDR";

  public static final String JOB_NAME = "TYJOB_NAME";

  /** {@code leader} or {@code worker}. */
  public static final String ROLE = "TYJOB_ROLE";

  public static final String WORKER_SET = "TYJOB_WORKER_SET";
  public static final String WORKER_INDEX = "TYJOB_WORKER_INDEX";

  public PodEnvironment {
    variables = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variables));
  }

  /**
   * The leader has no leader address to be told: it is created before it has an IP. A leader that
   * needs its own address reads it from the downward API ({@code status.podIP}).
   */
  public static PodEnvironment forLeader(String jobName) {
    Map<String, String> variables = new LinkedHashMap<>();
    variables.put(JOB_NAME, jobName);
    variables.put(ROLE, PodRole.LEADER.wireName());
    return new PodEnvironment(variables);
  }

  public static PodEnvironment forWorker(
      String jobName, PodSlot.Worker slot, String leaderAddress) {
    Map<String, String> variables = new LinkedHashMap<>();
    variables.put(LEADER_ADDRESS, leaderAddress);
    variables.put(JOB_NAME, jobName);
    variables.put(ROLE, PodRole.WORKER.wireName());
    variables.put(WORKER_SET, slot.workerSet());
    variables.put(WORKER_INDEX, Integer.toString(slot.index()));
    return new PodEnvironment(variables);
  }

  public Optional<String> leaderAddress() {
    return Optional.ofNullable(variables.get(LEADER_ADDRESS));
  }
}
