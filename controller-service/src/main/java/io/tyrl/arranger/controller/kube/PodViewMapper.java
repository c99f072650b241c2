package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.tyrl.arranger.controller.lifecycle.PodPhase;
import io.tyrl.arranger.controller.lifecycle.PodView;
import java.util.List;
import java.util.Optional;

/** Reads a pod from the informer cache into the planner's {@link PodView}. */
public final class PodViewMapper {

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
        Optional.ofNullable(status == null ? null : status.getReason()));
  }
}
