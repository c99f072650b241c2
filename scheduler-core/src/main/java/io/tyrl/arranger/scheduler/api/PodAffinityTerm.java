package io.tyrl.arranger.scheduler.api;

import java.util.Map;
import java.util.Set;

/**
 * A pod (anti-)affinity term: pods matching {@code selector}, in {@code namespaces} (empty = the
 * namespace of the pod that carries the term) or in every namespace ({@code allNamespaces}, from an
 * empty {@code namespaceSelector}), counted per value of the node label {@code topologyKey}.
 */
public record PodAffinityTerm(
    LabelSelector selector, Set<String> namespaces, boolean allNamespaces, String topologyKey) {

  public PodAffinityTerm {
    selector = selector == null ? LabelSelector.NOTHING : selector;
    namespaces = namespaces == null ? Set.of() : Set.copyOf(namespaces);
    if (topologyKey == null || topologyKey.isBlank()) {
      throw new IllegalArgumentException("pod affinity term: topologyKey must not be blank");
    }
  }

  /** A term over the carrier's own namespace. */
  public static PodAffinityTerm of(LabelSelector selector, String topologyKey) {
    return new PodAffinityTerm(selector, Set.of(), false, topologyKey);
  }

  /**
   * True when a pod of {@code namespace} with {@code labels} is one this term, carried by a pod of
   * {@code ownerNamespace}, means.
   */
  public boolean matches(String namespace, Map<String, String> labels, String ownerNamespace) {
    boolean inNamespace =
        allNamespaces
            || (namespaces.isEmpty()
                ? namespace.equals(ownerNamespace)
                : namespaces.contains(namespace));
    return inNamespace && selector.matches(labels);
  }
}
