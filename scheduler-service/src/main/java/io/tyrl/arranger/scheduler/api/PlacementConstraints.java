package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod asks of the node it goes to: nodeSelector, required node-affinity terms (ORed; empty =
 * no constraint), tolerations, preferred node-affinity terms (they score), host ports, and what it
 * asks of the pods around it ({@link PodAffinity}). It is a value so that pods asking the same can
 * share one precomputed verdict per node.
 */
public record PlacementConstraints(Map<String, String> nodeSelector, List<NodeAffinityTerm> requiredAffinity,
    List<Toleration> tolerations, List<PreferredNodeAffinityTerm> preferredAffinity, List<HostPort> hostPorts,
    PodAffinity podAffinity) {

  public static final PlacementConstraints NONE = new PlacementConstraints(Map.of(), List.of(), List.of());

  public PlacementConstraints {
    nodeSelector = nodeSelector == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
    requiredAffinity = requiredAffinity == null ? List.of() : List.copyOf(requiredAffinity);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    preferredAffinity = preferredAffinity == null ? List.of() : List.copyOf(preferredAffinity);
    hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
    podAffinity = podAffinity == null ? PodAffinity.NONE : podAffinity;
  }

  /** Node selector, required node affinity and tolerations only. */
  public PlacementConstraints(Map<String, String> nodeSelector, List<NodeAffinityTerm> requiredAffinity,
      List<Toleration> tolerations) {
    this(nodeSelector, requiredAffinity, tolerations, List.of(), List.of(), PodAffinity.NONE);
  }

  public PlacementConstraints withNodeSelector(Map<String, String> selector) {
    return new PlacementConstraints(selector, requiredAffinity, tolerations, preferredAffinity, hostPorts, podAffinity);
  }

  public PlacementConstraints withRequiredAffinity(List<NodeAffinityTerm> terms) {
    return new PlacementConstraints(nodeSelector, terms, tolerations, preferredAffinity, hostPorts, podAffinity);
  }

  public PlacementConstraints withTolerations(List<Toleration> newTolerations) {
    return new PlacementConstraints(nodeSelector, requiredAffinity, newTolerations, preferredAffinity, hostPorts, podAffinity);
  }

  public PlacementConstraints withPreferredAffinity(List<PreferredNodeAffinityTerm> terms) {
    return new PlacementConstraints(nodeSelector, requiredAffinity, tolerations, terms, hostPorts, podAffinity);
  }

  public PlacementConstraints withHostPorts(List<HostPort> ports) {
    return new PlacementConstraints(nodeSelector, requiredAffinity, tolerations, preferredAffinity, ports, podAffinity);
  }

  public PlacementConstraints withPodAffinity(PodAffinity newPodAffinity) {
    return new PlacementConstraints(nodeSelector, requiredAffinity, tolerations, preferredAffinity, hostPorts, newPodAffinity);
  }

  public boolean tolerates(Taint taint) {
    for (Toleration toleration : tolerations) {
      if (toleration.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}
