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
 * part of {@code used} held by pods that are terminating.
 */
public record NodeInfo(String name, Map<String, String> labels, List<Taint> taints, Resource allocatable, Resource used,
    Resource releasing, boolean ready, boolean unschedulable, int podCount) {

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
      throw new IllegalArgumentException("node " + name + ": podCount must be >= 0, was " + podCount);
    }
  }

  /** Allocatable minus used, floored at zero (a node can be over-committed by pods the scheduler did not place). */
  public Resource idle() {
    return allocatable.minusFloored(used);
  }
}
