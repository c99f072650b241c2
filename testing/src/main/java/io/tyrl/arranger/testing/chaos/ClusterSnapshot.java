package io.tyrl.arranger.testing.chaos;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the invariant checks need of the cluster at one moment, read from the API objects themselves
 * (nodes' allocatable, pods' specs and phases, TYJobs' status), never from either service's books.
 *
 * @param at when it was read
 */
public record ClusterSnapshot(
    Instant at, List<NodeCapacity> nodes, List<PodState> pods, List<JobState> jobs) {

  public static final Set<String> TERMINAL_STAGES = Set.of("Succeeded", "Failed");

  public ClusterSnapshot {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    jobs = List.copyOf(jobs);
  }

  /** A node and what it can hold. */
  public record NodeCapacity(String name, Map<String, BigDecimal> allocatable) {
    public NodeCapacity {
      allocatable = Map.copyOf(allocatable);
    }
  }

  /**
   * A pod as the API server has it.
   *
   * @param node {@code spec.nodeName}, null while unbound
   * @param owner the UID of the TYJob that owns it (or its job-name label), null for foreign pods
   * @param terminating whether its deletion has begun ({@code deletionTimestamp} set)
   */
  public record PodState(
      String namespace,
      String name,
      String uid,
      String owner,
      String node,
      String phase,
      boolean terminating,
      Map<String, BigDecimal> requests) {

    public PodState {
      requests = Map.copyOf(requests);
    }

    public String key() {
      return namespace + "/" + name;
    }

    /**
     * Succeeded or Failed: its containers have stopped, and the kubelet no longer holds its
     * resources.
     */
    public boolean finished() {
      return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
  }

  /**
   * A TYJob as the API server has it.
   *
   * @param stage {@code status.stage}, empty when none yet
   * @param allocations {@code status.allocations}: pod name → node
   * @param requestsByPod the requests of every pod the job's spec asks for, by pod name
   */
  public record JobState(
      String namespace,
      String name,
      String uid,
      String stage,
      Map<String, String> allocations,
      Map<String, Map<String, BigDecimal>> requestsByPod) {

    public JobState {
      allocations = Map.copyOf(allocations);
      requestsByPod = Map.copyOf(requestsByPod);
    }

    public String key() {
      return namespace + "/" + name;
    }

    public boolean ended() {
      return TERMINAL_STAGES.contains(stage);
    }
  }
}
