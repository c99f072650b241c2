package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;

/**
 * A node-affinity term: all its label requirements ({@code matchExpressions}) and field
 * requirements ({@code matchFields}, where Kubernetes supports only {@value #NODE_NAME_FIELD}) must
 * hold; required terms themselves are ORed.
 */
public record NodeAffinityTerm(
    List<NodeSelectorRequirement> requirements, List<NodeSelectorRequirement> fieldRequirements) {

  /** The only node field a {@code matchFields} requirement may name. */
  public static final String NODE_NAME_FIELD = "metadata.name";

  public NodeAffinityTerm {
    requirements = List.copyOf(requirements);
    fieldRequirements = fieldRequirements == null ? List.of() : List.copyOf(fieldRequirements);
    for (NodeSelectorRequirement field : fieldRequirements) {
      if (!NODE_NAME_FIELD.equals(field.key())) {
        throw new IllegalArgumentException(
            "node affinity matchFields supports only " + NODE_NAME_FIELD + ", not " + field.key());
      }
    }
  }

  /** A term of label requirements only. */
  public NodeAffinityTerm(List<NodeSelectorRequirement> requirements) {
    this(requirements, List.of());
  }

  public static NodeAffinityTerm of(NodeSelectorRequirement... requirements) {
    return new NodeAffinityTerm(List.of(requirements));
  }

  /** A term on the node's name ({@code matchFields: metadata.name}). */
  public static NodeAffinityTerm ofFields(NodeSelectorRequirement... fieldRequirements) {
    return new NodeAffinityTerm(List.of(), List.of(fieldRequirements));
  }

  /**
   * Label requirements only; a term that also has field requirements never matches without the
   * node's name.
   */
  public boolean matches(Map<String, String> labels) {
    return fieldRequirements.isEmpty() && matches(labels, null);
  }

  /** An empty term matches nothing, as in Kubernetes. */
  public boolean matches(Map<String, String> labels, String nodeName) {
    if (requirements.isEmpty() && fieldRequirements.isEmpty()) {
      return false;
    }
    for (NodeSelectorRequirement requirement : requirements) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    if (!fieldRequirements.isEmpty()) {
      Map<String, String> fields = nodeName == null ? Map.of() : Map.of(NODE_NAME_FIELD, nodeName);
      for (NodeSelectorRequirement requirement : fieldRequirements) {
        if (!requirement.matches(fields)) {
          return false;
        }
      }
    }
    return true;
  }
}
