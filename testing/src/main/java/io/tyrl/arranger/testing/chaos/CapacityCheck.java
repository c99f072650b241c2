package io.tyrl.arranger.testing.chaos;

import io.tyrl.arranger.testing.chaos.ClusterSnapshot.JobState;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.NodeCapacity;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether any node holds more than it can, counting what is committed to it: every pod bound to it
 * that has not finished (a terminating pod still holds its resources until it is gone), plus every
 * allocation of a live job whose pod does not exist yet or is not bound yet (the controller is
 * about to create or bind it there). A pod that exists and is bound counts on the node it is bound
 * to, never also on its allocation.
 */
public final class CapacityCheck {

  private CapacityCheck() {}

  /** One node over its allocatable on one resource. */
  public record Overcommit(
      String node, String resource, BigDecimal committed, BigDecimal allocatable) {
    @Override
    public String toString() {
      return "node "
          + node
          + " over-committed on "
          + resource
          + ": "
          + committed.toPlainString()
          + " > "
          + allocatable.toPlainString();
    }
  }

  public static List<Overcommit> overcommitted(ClusterSnapshot snapshot) {
    Map<String, Map<String, BigDecimal>> committed = new TreeMap<>();
    Map<String, PodState> podsByKey = new HashMap<>();
    for (PodState pod : snapshot.pods()) {
      podsByKey.put(pod.key(), pod);
      if (pod.node() != null && !pod.finished()) {
        add(committed, pod.node(), pod.requests());
      }
    }
    for (JobState job : snapshot.jobs()) {
      if (job.ended()) {
        continue;
      }
      job.allocations()
          .forEach(
              (podName, node) -> {
                PodState pod = podsByKey.get(job.namespace() + "/" + podName);
                if (pod == null || pod.node() == null) {
                  add(committed, node, job.requestsByPod().getOrDefault(podName, Map.of()));
                }
              });
    }
    Map<String, NodeCapacity> nodes = new HashMap<>();
    snapshot.nodes().forEach(node -> nodes.put(node.name(), node));
    List<Overcommit> over = new ArrayList<>();
    committed.forEach(
        (node, byResource) -> {
          NodeCapacity capacity = nodes.get(node);
          new TreeMap<>(byResource)
              .forEach(
                  (resource, amount) -> {
                    BigDecimal allocatable =
                        capacity == null
                            ? BigDecimal.ZERO
                            : capacity.allocatable().getOrDefault(resource, BigDecimal.ZERO);
                    if (amount.compareTo(allocatable) > 0) {
                      over.add(new Overcommit(node, resource, amount, allocatable));
                    }
                  });
        });
    return over;
  }

  private static void add(
      Map<String, Map<String, BigDecimal>> committed,
      String node,
      Map<String, BigDecimal> requests) {
    Map<String, BigDecimal> onNode = committed.computeIfAbsent(node, n -> new HashMap<>());
    requests.forEach((resource, amount) -> onNode.merge(resource, amount, BigDecimal::add));
  }
}
