package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which nodes are not Ready, and since when, from the node informer: a node whose {@code Ready}
 * condition is False or Unknown (its kubelet stopped reporting) since that condition's last
 * transition. A node the cache does not hold is not judged.
 */
public final class NodeReadiness {

  private final SharedIndexInformer<V1Node> nodes;

  public NodeReadiness(SharedIndexInformer<V1Node> nodes) {
    this.nodes = nodes;
  }

  public boolean hasSynced() {
    return nodes.hasSynced();
  }

  public Optional<Instant> notReadySince(String nodeName) {
    return Optional.ofNullable(nodes.getIndexer().getByKey(nodeName)).flatMap(NodeReadiness::notReadySince);
  }

  static Optional<Instant> notReadySince(V1Node node) {
    List<V1NodeCondition> conditions = node.getStatus() == null || node.getStatus().getConditions() == null
        ? List.of() : node.getStatus().getConditions();
    Optional<V1NodeCondition> ready = conditions.stream().filter(condition -> "Ready".equals(condition.getType())).findFirst();
    if (ready.isEmpty() || "True".equals(ready.get().getStatus())) {
      return Optional.empty();
    }
    V1NodeCondition condition = ready.get();
    // Without a transition time the node counts as not Ready since its last heartbeat, or its creation.
    return Optional.ofNullable(condition.getLastTransitionTime())
        .or(() -> Optional.ofNullable(condition.getLastHeartbeatTime()))
        .or(() -> Optional.ofNullable(node.getMetadata().getCreationTimestamp()))
        .map(time -> time.toInstant());
  }
}
