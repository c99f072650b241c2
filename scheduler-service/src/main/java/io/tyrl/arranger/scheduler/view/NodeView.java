package io.tyrl.arranger.scheduler.view;

import java.util.List;

/**
 * A node at the end of the last cycle: what is allocated on it (Arranger's placed pods and every
 * other pod the snapshot counted) against its allocatable, and Arranger's jobs with pods on it.
 */
public record NodeView(
    String name,
    boolean ready,
    boolean unschedulable,
    List<ResourceBar> resources,
    List<JobOnNode> jobs) {

  public NodeView {
    resources = List.copyOf(resources);
    jobs = List.copyOf(jobs);
  }

  /** A job with {@code pods} of its pods placed on the node. */
  public record JobOnNode(String namespace, String name, int pods) {}
}
