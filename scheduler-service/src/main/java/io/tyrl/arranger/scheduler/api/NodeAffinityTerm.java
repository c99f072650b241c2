package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;

/** A required node-affinity term: all its requirements must hold (terms themselves are ORed). */
public record NodeAffinityTerm(List<NodeSelectorRequirement> requirements) {

  public NodeAffinityTerm {
    requirements = List.copyOf(requirements);
  }

  public static NodeAffinityTerm of(NodeSelectorRequirement... requirements) {
    return new NodeAffinityTerm(List.of(requirements));
  }

  /** An empty term matches nothing, as in Kubernetes. */
  public boolean matches(Map<String, String> labels) {
    if (requirements.isEmpty()) {
      return false;
    }
    for (NodeSelectorRequirement requirement : requirements) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
