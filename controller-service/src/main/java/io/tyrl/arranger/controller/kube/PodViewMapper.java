package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a pod from the informer cache into the planner's {@link PodView}, with its node's
 * readiness.
 */
public final class PodViewMapper {

  private final Function<String, Optional<NodeReadiness.NotReady>> notReady;

  /**
   * @param notReady node name → since when it has not been Ready, and the taint that brings; empty
   *     while it is
   */
  public PodViewMapper(Function<String, Optional<NodeReadiness.NotReady>> notReady) {
    this.notReady = notReady;
  }

  /** For pods whose nodes are all taken as Ready. */
  public PodViewMapper() {
    this(node -> Optional.empty());
  }

  public PodView map(V1Pod pod) {
    V1PodStatus status = pod.getStatus();
    Optional<NodeReadiness.NotReady> node =
        Optional.ofNullable(pod.getSpec() == null ? null : pod.getSpec().getNodeName())
            .flatMap(notReady);
    List<V1PodCondition> conditions =
        status == null || status.getConditions() == null ? List.of() : status.getConditions();
    // A loop, not a stream: a reconcile maps every pod of its job, 5,001 for the largest.
    boolean ready = false;
    for (V1PodCondition condition : conditions) {
      if ("Ready".equals(condition.getType()) && "True".equals(condition.getStatus())) {
        ready = true;
        break;
      }
    }
    return new PodView(
        pod.getMetadata().getName(),
        PodPhase.fromWireNameOrPending(status == null ? null : status.getPhase()),
        ready,
        Optional.ofNullable(status == null ? null : status.getPodIP()),
        Optional.ofNullable(pod.getSpec() == null ? null : pod.getSpec().getNodeName()),
        pod.getMetadata().getDeletionTimestamp() != null,
        Optional.ofNullable(status == null ? null : status.getReason()),
        node.map(NodeReadiness.NotReady::since),
        node.flatMap(lost -> toleration(pod, lost.taint())));
  }

  /**
   * The pod's shortest tolerationSeconds for the NoExecute taint {@code taintKey}: its grace on
   * such a node.
   */
  static Optional<Duration> toleration(V1Pod pod, String taintKey) {
    List<V1Toleration> tolerations =
        pod.getSpec() == null || pod.getSpec().getTolerations() == null
            ? List.of()
            : pod.getSpec().getTolerations();
    return tolerations.stream()
        .filter(toleration -> toleration.getTolerationSeconds() != null)
        .filter(
            toleration ->
                toleration.getEffect() == null || "NoExecute".equals(toleration.getEffect()))
        .filter(
            toleration ->
                toleration.getKey() == null
                    ? "Exists".equals(toleration.getOperator())
                    : taintKey.equals(toleration.getKey()))
        .map(toleration -> Duration.ofSeconds(Math.max(0, toleration.getTolerationSeconds())))
        .min(Duration::compareTo);
  }
}
