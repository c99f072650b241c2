package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod asks of a node's labels and taints: nodeSelector, required node-affinity terms (ORed;
 * empty = no constraint) and tolerations. It is a value so that pods asking the same can share one
 * precomputed verdict per node.
 */
public record PlacementConstraints(Map<String, String> nodeSelector, List<NodeAffinityTerm> requiredAffinity,
    List<Toleration> tolerations) {

  public static final PlacementConstraints NONE = new PlacementConstraints(Map.of(), List.of(), List.of());

  public PlacementConstraints {
    nodeSelector = nodeSelector == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
    requiredAffinity = requiredAffinity == null ? List.of() : List.copyOf(requiredAffinity);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
  }

  public PlacementConstraints withNodeSelector(Map<String, String> selector) {
    return new PlacementConstraints(selector, requiredAffinity, tolerations);
  }

  public PlacementConstraints withRequiredAffinity(List<NodeAffinityTerm> terms) {
    return new PlacementConstraints(nodeSelector, terms, tolerations);
  }

  public PlacementConstraints withTolerations(List<Toleration> newTolerations) {
    return new PlacementConstraints(nodeSelector, requiredAffinity, newTolerations);
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
