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
public record PlacementConstraints(
    Map<String, String> nodeSelector,
    List<NodeAffinityTerm> requiredAffinity,
    List<Toleration> tolerations,
    List<PreferredNodeAffinityTerm> preferredAffinity,
    List<HostPort> hostPorts,
    PodAffinity podAffinity,
    Map<String, String> avoidedNodes) {

  public static final PlacementConstraints NONE =
      new PlacementConstraints(Map.of(), List.of(), List.of());

  public PlacementConstraints {
    nodeSelector =
        nodeSelector == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
    requiredAffinity = requiredAffinity == null ? List.of() : List.copyOf(requiredAffinity);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    preferredAffinity = preferredAffinity == null ? List.of() : List.copyOf(preferredAffinity);
    hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
    podAffinity = podAffinity == null ? PodAffinity.NONE : podAffinity;
    avoidedNodes =
        avoidedNodes == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(avoidedNodes));
  }

  /** Constraints that avoid no node. */
  public PlacementConstraints(
      Map<String, String> nodeSelector,
      List<NodeAffinityTerm> requiredAffinity,
      List<Toleration> tolerations,
      List<PreferredNodeAffinityTerm> preferredAffinity,
      List<HostPort> hostPorts,
      PodAffinity podAffinity) {
    this(
        nodeSelector,
        requiredAffinity,
        tolerations,
        preferredAffinity,
        hostPorts,
        podAffinity,
        Map.of());
  }

  /** Node selector, required node affinity and tolerations only. */
  public PlacementConstraints(
      Map<String, String> nodeSelector,
      List<NodeAffinityTerm> requiredAffinity,
      List<Toleration> tolerations) {
    this(nodeSelector, requiredAffinity, tolerations, List.of(), List.of(), PodAffinity.NONE);
  }

  public PlacementConstraints withNodeSelector(Map<String, String> selector) {
    return new PlacementConstraints(
        selector,
        requiredAffinity,
        tolerations,
        preferredAffinity,
        hostPorts,
        podAffinity,
        avoidedNodes);
  }

  public PlacementConstraints withRequiredAffinity(List<NodeAffinityTerm> terms) {
    return new PlacementConstraints(
        nodeSelector, terms, tolerations, preferredAffinity, hostPorts, podAffinity, avoidedNodes);
  }

  public PlacementConstraints withTolerations(List<Toleration> newTolerations) {
    return new PlacementConstraints(
        nodeSelector,
        requiredAffinity,
        newTolerations,
        preferredAffinity,
        hostPorts,
        podAffinity,
        avoidedNodes);
  }

  public PlacementConstraints withPreferredAffinity(List<PreferredNodeAffinityTerm> terms) {
    return new PlacementConstraints(
        nodeSelector, requiredAffinity, tolerations, terms, hostPorts, podAffinity, avoidedNodes);
  }

  public PlacementConstraints withHostPorts(List<HostPort> ports) {
    return new PlacementConstraints(
        nodeSelector,
        requiredAffinity,
        tolerations,
        preferredAffinity,
        ports,
        podAffinity,
        avoidedNodes);
  }

  public PlacementConstraints withPodAffinity(PodAffinity newPodAffinity) {
    return new PlacementConstraints(
        nodeSelector,
        requiredAffinity,
        tolerations,
        preferredAffinity,
        hostPorts,
        newPodAffinity,
        avoidedNodes);
  }

  /**
   * @param nodes node name → why the job's pods stay off it for now (a kubelet refused one of them
   *     there), as the fit diagnosis reports it
   */
  public PlacementConstraints withAvoidedNodes(Map<String, String> nodes) {
    return new PlacementConstraints(
        nodeSelector,
        requiredAffinity,
        tolerations,
        preferredAffinity,
        hostPorts,
        podAffinity,
        nodes);
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
