package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A node as the scheduler sees it.
 *
 * <p>{@code used} and {@code podCount} cover only what the snapshot's jobs do <em>not</em> already
 * account for — pods Arranger does not own, or pods of jobs absent from the snapshot. The session
 * adds the snapshot's placed tasks itself, so nothing is counted twice. {@code releasing} is the
 * part of {@code used} held by pods that are terminating. {@code existingPods} describes those same
 * pods for the inter-pod predicates (labels, host ports, anti-affinity); it may be left empty when
 * no pod in the cluster uses them.
 */
public record NodeInfo(
    String name,
    Map<String, String> labels,
    List<Taint> taints,
    Resource allocatable,
    Resource used,
    Resource releasing,
    boolean ready,
    boolean unschedulable,
    int podCount,
    List<ExistingPod> existingPods) {

  public NodeInfo {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("node name must not be blank");
    }
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    Objects.requireNonNull(allocatable, "node " + name + ": allocatable");
    used = used == null ? Resource.EMPTY : used;
    releasing = releasing == null ? Resource.EMPTY : releasing;
    if (podCount < 0) {
      throw new IllegalArgumentException(
          "node " + name + ": podCount must be >= 0, was " + podCount);
    }
    existingPods = existingPods == null ? List.of() : List.copyOf(existingPods);
  }

  /** A node whose other pods are described by their usage only. */
  public NodeInfo(
      String name,
      Map<String, String> labels,
      List<Taint> taints,
      Resource allocatable,
      Resource used,
      Resource releasing,
      boolean ready,
      boolean unschedulable,
      int podCount) {
    this(
        name,
        labels,
        taints,
        allocatable,
        used,
        releasing,
        ready,
        unschedulable,
        podCount,
        List.of());
  }

  /**
   * Allocatable minus used, floored at zero (a node can be over-committed by pods the scheduler did
   * not place).
   */
  public Resource idle() {
    return allocatable.minusFloored(used);
  }
}
