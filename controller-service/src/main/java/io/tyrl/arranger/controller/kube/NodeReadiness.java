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

  /** Taint the node lifecycle puts on a node whose Ready condition is False. */
  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

  /**
   * Taint the node lifecycle puts on a node whose Ready condition is Unknown (it stopped
   * reporting).
   */
  public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

  /**
   * A node that is not Ready.
   *
   * @param taint the NoExecute taint such a node gets, whose {@code tolerationSeconds} are a pod's
   *     grace there
   */
  public record NotReady(Instant since, String taint) {}

  private final SharedIndexInformer<V1Node> nodes;

  public NodeReadiness(SharedIndexInformer<V1Node> nodes) {
    this.nodes = nodes;
  }

  public boolean hasSynced() {
    return nodes.hasSynced();
  }

  public Optional<NotReady> notReady(String nodeName) {
    return Optional.ofNullable(nodes.getIndexer().getByKey(nodeName))
        .flatMap(NodeReadiness::notReady);
  }

  static Optional<NotReady> notReady(V1Node node) {
    List<V1NodeCondition> conditions =
        node.getStatus() == null || node.getStatus().getConditions() == null
            ? List.of()
            : node.getStatus().getConditions();
    // Asked for the node of every pod a reconcile maps: a loop, not a stream.
    V1NodeCondition ready = null;
    for (V1NodeCondition candidate : conditions) {
      if ("Ready".equals(candidate.getType())) {
        ready = candidate;
        break;
      }
    }
    if (ready == null || "True".equals(ready.getStatus())) {
      return Optional.empty();
    }
    V1NodeCondition condition = ready;
    String taint = "False".equals(condition.getStatus()) ? NOT_READY_TAINT : UNREACHABLE_TAINT;
    // Without a transition time the node counts as not Ready since its last heartbeat, or its
    // creation.
    return Optional.ofNullable(condition.getLastTransitionTime())
        .or(() -> Optional.ofNullable(condition.getLastHeartbeatTime()))
        .or(() -> Optional.ofNullable(node.getMetadata().getCreationTimestamp()))
        .map(time -> new NotReady(time.toInstant(), taint));
  }
}
