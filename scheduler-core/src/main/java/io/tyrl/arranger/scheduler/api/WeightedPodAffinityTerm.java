package io.tyrl.arranger.scheduler.api;

/** A preferred pod (anti-)affinity term and its weight (1..100). */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {

  public WeightedPodAffinityTerm {
    if (weight < 1 || weight > 100) {
      throw new IllegalArgumentException(
          "preferred pod affinity weight must be within 1..100, was " + weight);
    }
    java.util.Objects.requireNonNull(term, "preferred pod affinity term");
  }
}
