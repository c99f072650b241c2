package io.tyrl.arranger.scheduler.api;

/**
 * A topology spread constraint: the pods matching {@code selector} in the pod's namespace, counted
 * per value of the node label {@code topologyKey}, may differ by at most {@code maxSkew} between
 * the fullest and the emptiest domain. {@code doNotSchedule} (Kubernetes' {@code whenUnsatisfiable:
 * DoNotSchedule}) filters nodes; otherwise ({@code ScheduleAnyway}) it only scores.
 */
public record TopologySpreadConstraint(
    int maxSkew, String topologyKey, boolean doNotSchedule, LabelSelector selector) {

  public TopologySpreadConstraint {
    if (maxSkew < 1) {
      throw new IllegalArgumentException(
          "topology spread constraint: maxSkew must be >= 1, was " + maxSkew);
    }
    if (topologyKey == null || topologyKey.isBlank()) {
      throw new IllegalArgumentException(
          "topology spread constraint: topologyKey must not be blank");
    }
    selector = selector == null ? LabelSelector.NOTHING : selector;
  }
}
