package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.tyrl.arranger.controller.lifecycle.PodPhase;
import io.tyrl.arranger.controller.lifecycle.PodView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Reads a pod from the informer cache into the planner's {@link PodView}, with its node's readiness. */
public final class PodViewMapper {

  /** Taints a node gets when it is not Ready; a pod's tolerationSeconds for them is its grace there. */
  static final Set<String> NODE_LOSS_TAINTS = Set.of("node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready");

  private final Function<String, Optional<Instant>> notReadySince;

  /** @param notReadySince node name → since when it has not been Ready; empty while it is */
  public PodViewMapper(Function<String, Optional<Instant>> notReadySince) {
    this.notReadySince = notReadySince;
  }

  /** For pods whose nodes are all taken as Ready. */
  public PodViewMapper() {
    this(node -> Optional.empty());
  }

  public PodView map(V1Pod pod) {
    V1PodStatus status = pod.getStatus();
    List<V1PodCondition> conditions = status == null || status.getConditions() == null ? List.of() : status.getConditions();
    boolean ready = conditions.stream()
        .anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
    return new PodView(
        pod.getMetadata().getName(),
        PodPhase.fromWireNameOrPending(status == null ? null : status.getPhase()),
        ready,
        Optional.ofNullable(status == null ? null : status.getPodIP()),
        Optional.ofNullable(pod.getSpec() == null ? null : pod.getSpec().getNodeName()),
        pod.getMetadata().getDeletionTimestamp() != null,
        Optional.ofNullable(status == null ? null : status.getReason()),
        Optional.ofNullable(pod.getSpec() == null ? null : pod.getSpec().getNodeName()).flatMap(notReadySince),
        nodeLossToleration(pod));
  }

  /** The pod's shortest tolerationSeconds for the NoExecute taints of a node that is not Ready. */
  static Optional<Duration> nodeLossToleration(V1Pod pod) {
    List<V1Toleration> tolerations = pod.getSpec() == null || pod.getSpec().getTolerations() == null
        ? List.of() : pod.getSpec().getTolerations();
    return tolerations.stream()
        .filter(toleration -> toleration.getTolerationSeconds() != null)
        .filter(toleration -> toleration.getEffect() == null || "NoExecute".equals(toleration.getEffect()))
        .filter(toleration -> toleration.getKey() == null ? "Exists".equals(toleration.getOperator())
            : NODE_LOSS_TAINTS.contains(toleration.getKey()))
        .map(toleration -> Duration.ofSeconds(Math.max(0, toleration.getTolerationSeconds())))
        .min(Duration::compareTo);
  }
}
