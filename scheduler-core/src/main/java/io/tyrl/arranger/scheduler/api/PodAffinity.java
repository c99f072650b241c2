package io.tyrl.arranger.scheduler.api;

import java.util.List;

/**
 * What a pod asks of the pods around it: required and preferred pod affinity and anti-affinity, and
 * topology spread constraints. {@link #NONE} when it asks nothing, which keeps the common case
 * free.
 */
public record PodAffinity(
    List<PodAffinityTerm> required,
    List<WeightedPodAffinityTerm> preferred,
    List<PodAffinityTerm> requiredAnti,
    List<WeightedPodAffinityTerm> preferredAnti,
    List<TopologySpreadConstraint> spread) {

  public static final PodAffinity NONE =
      new PodAffinity(List.of(), List.of(), List.of(), List.of(), List.of());

  public PodAffinity {
    required = required == null ? List.of() : List.copyOf(required);
    preferred = preferred == null ? List.of() : List.copyOf(preferred);
    requiredAnti = requiredAnti == null ? List.of() : List.copyOf(requiredAnti);
    preferredAnti = preferredAnti == null ? List.of() : List.copyOf(preferredAnti);
    spread = spread == null ? List.of() : List.copyOf(spread);
  }

  public boolean isEmpty() {
    return required.isEmpty()
        && preferred.isEmpty()
        && requiredAnti.isEmpty()
        && preferredAnti.isEmpty()
        && spread.isEmpty();
  }

  /**
   * True when the verdict on a node depends on where other pods are (may change as pods are
   * placed).
   */
  public boolean filtersByOtherPods() {
    return !required.isEmpty()
        || !requiredAnti.isEmpty()
        || spread.stream().anyMatch(TopologySpreadConstraint::doNotSchedule);
  }

  public PodAffinity withRequired(List<PodAffinityTerm> terms) {
    return new PodAffinity(terms, preferred, requiredAnti, preferredAnti, spread);
  }

  public PodAffinity withPreferred(List<WeightedPodAffinityTerm> terms) {
    return new PodAffinity(required, terms, requiredAnti, preferredAnti, spread);
  }

  public PodAffinity withRequiredAnti(List<PodAffinityTerm> terms) {
    return new PodAffinity(required, preferred, terms, preferredAnti, spread);
  }

  public PodAffinity withPreferredAnti(List<WeightedPodAffinityTerm> terms) {
    return new PodAffinity(required, preferred, requiredAnti, terms, spread);
  }

  public PodAffinity withSpread(List<TopologySpreadConstraint> constraints) {
    return new PodAffinity(required, preferred, requiredAnti, preferredAnti, constraints);
  }
}
