package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;

/**
 * A pod on a node that the snapshot's jobs do not account for (see {@link NodeInfo}), as far as
 * inter-pod predicates need it: its namespace and labels (others' affinity and spread count it),
 * the host ports it binds, and its own required anti-affinity (which keeps matching pods out of its
 * domain).
 */
public record ExistingPod(
    String namespace,
    Map<String, String> labels,
    List<HostPort> hostPorts,
    List<PodAffinityTerm> requiredAntiAffinity) {

  public ExistingPod {
    namespace = namespace == null ? "" : namespace;
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
    requiredAntiAffinity =
        requiredAntiAffinity == null ? List.of() : List.copyOf(requiredAntiAffinity);
  }
}
