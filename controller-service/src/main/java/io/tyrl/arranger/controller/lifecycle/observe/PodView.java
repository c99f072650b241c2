package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable view of one pod of the job (the adapter lists pods by the job's label).
 *
 * <p>A pod's place in the job — leader, or which worker of which set — is taken from its name,
 * which is deterministic ({@link PodNaming}), not from its labels: the name is what allocations are
 * keyed by and cannot be edited after creation, so it is the one identity that always agrees.
 *
 * @param ready the pod's {@code Ready} condition is True
 * @param podIp {@code status.podIP}
 * @param nodeName {@code spec.nodeName}
 * @param deleting {@code metadata.deletionTimestamp} is set
 * @param statusReason {@code status.reason}, e.g. {@code Evicted}, or a kubelet admission rejection
 *     such as {@code OutOfcpu}, {@code OutOfmemory}, {@code NodeAffinity}
 * @param nodeNotReadySince since when the pod's node has not been Ready; empty while it is Ready
 *     (or unknown to the controller)
 * @param nodeLossToleration while its node is not Ready: the pod's {@code tolerationSeconds} for
 *     the NoExecute taint such a node gets ({@code node.kubernetes.io/not-ready} when Ready is
 *     False, {@code unreachable} when Unknown); empty when it has none
 */
public record PodView(
    String name,
    PodPhase phase,
    boolean ready,
    Optional<String> podIp,
    Optional<String> nodeName,
    boolean deleting,
    Optional<String> statusReason,
    Optional<Instant> nodeNotReadySince,
    Optional<Duration> nodeLossToleration) {

  public PodView {
    Objects.requireNonNull(name, "name");
    phase = Objects.requireNonNullElse(phase, PodPhase.PENDING);
    podIp = podIp == null ? Optional.empty() : podIp.filter(ip -> !ip.isEmpty());
    nodeName = nodeName == null ? Optional.empty() : nodeName.filter(node -> !node.isEmpty());
    statusReason =
        statusReason == null ? Optional.empty() : statusReason.filter(reason -> !reason.isEmpty());
    nodeNotReadySince = nodeNotReadySince == null ? Optional.empty() : nodeNotReadySince;
    nodeLossToleration = nodeLossToleration == null ? Optional.empty() : nodeLossToleration;
  }

  /** A pod on a node that is Ready, or whose node's readiness is not known. */
  public PodView(
      String name,
      PodPhase phase,
      boolean ready,
      Optional<String> podIp,
      Optional<String> nodeName,
      boolean deleting,
      Optional<String> statusReason) {
    this(
        name,
        phase,
        ready,
        podIp,
        nodeName,
        deleting,
        statusReason,
        Optional.empty(),
        Optional.empty());
  }

  /** Running, Ready and not on its way out: counts towards the job's ready workers. */
  public boolean isServing() {
    return phase == PodPhase.RUNNING && ready && !deleting;
  }
}
