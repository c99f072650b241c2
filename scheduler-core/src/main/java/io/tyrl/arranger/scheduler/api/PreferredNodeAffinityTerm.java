package io.tyrl.arranger.scheduler.api;

/** A preferred node-affinity term and its weight (1..100). */
public record PreferredNodeAffinityTerm(int weight, NodeAffinityTerm term) {

  public PreferredNodeAffinityTerm {
    if (weight < 1 || weight > 100) {
      throw new IllegalArgumentException(
          "preferred node affinity weight must be within 1..100, was " + weight);
    }
    java.util.Objects.requireNonNull(term, "preferred node affinity term");
  }
}
