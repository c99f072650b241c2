package io.tyrl.arranger.controller.lifecycle.status;

import java.time.Instant;
import java.util.Objects;

/**
 * A node whose kubelet refused one of the job's pods after binding ({@code status.avoidNodes}): the
 * scheduler places none of the job's pods there until {@code until}.
 *
 * @param reason the kubelet's reason, e.g. {@code OutOfcpu}
 */
public record AvoidedNode(String node, String reason, Instant until) {

  public AvoidedNode {
    Objects.requireNonNull(node, "node");
    reason = Objects.requireNonNullElse(reason, "");
    Objects.requireNonNull(until, "until");
  }
}
