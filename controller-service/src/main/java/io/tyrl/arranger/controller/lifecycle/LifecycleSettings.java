package io.tyrl.arranger.controller.lifecycle;

import java.time.Duration;
import java.util.Objects;

/**
 * The lifecycle's timings.
 *
 * @param refusingNodeAvoidance how long the scheduler avoids, for a job, a node whose kubelet
 *     refused one of its pods after binding ({@code OutOfcpu}, ...)
 * @param unreachableNodeGrace how long the pods of a job being rescheduled may sit on a node that
 *     is not Ready before the controller force-deletes them, for pods that do not say it themselves
 *     (a {@code tolerationSeconds} for {@code node.kubernetes.io/unreachable} or {@code not-ready})
 */
public record LifecycleSettings(Duration refusingNodeAvoidance, Duration unreachableNodeGrace) {

  public static final LifecycleSettings DEFAULTS =
      new LifecycleSettings(Duration.ofMinutes(5), Duration.ofMinutes(5));

  public LifecycleSettings {
    Objects.requireNonNull(refusingNodeAvoidance, "refusingNodeAvoidance");
    Objects.requireNonNull(unreachableNodeGrace, "unreachableNodeGrace");
    if (refusingNodeAvoidance.isNegative() || unreachableNodeGrace.isNegative()) {
      throw new IllegalArgumentException(
          "lifecycle durations must not be negative, got refusing-node avoidance "
              + refusingNodeAvoidance
              + " and unreachable-node grace "
              + unreachableNodeGrace);
    }
  }
}
