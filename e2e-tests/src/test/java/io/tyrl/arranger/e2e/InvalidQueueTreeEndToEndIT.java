package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A queue whose parent does not exist, through both services in the default configuration: its job
 * waits with reason {@code InvalidQueue} naming the problem while a job of a valid queue is placed
 * beside it; the Queue shows {@code TreeValid=False}. Once the parent is created, the tree is
 * valid, the condition turns True and the waiting job is placed.
 */
class InvalidQueueTreeEndToEndIT {

  @Test
  void anInvalidQueueStopsOnlyItsOwnJobsUntilTheTreeIsFixed() throws Exception {
    List<NodeSpec> nodes =
        List.of(
            NodeSpec.named("gpu-node-0").cpu("32").memory("128Gi").gpus(4).build(),
            NodeSpec.named("gpu-node-1").cpu("32").memory("128Gi").gpus(4).build());
    try (TenancyCluster cluster = TenancyCluster.start("invalid-tree", nodes)) {
      cluster.queue("fine", Map.of("weight", 1));
      cluster.queue("orphan", Map.of("weight", 1, "parent", "ghost"));
      TenancyCluster.gpuJob("fine-job", "fine", 1, 1).create(cluster.admin());
      TenancyCluster.gpuJob("stuck-job", "orphan", 1, 1).create(cluster.admin());

      await("the valid queue's job placed, the orphan's waiting for its tree")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                assertThat(cluster.placedPodsByQueue())
                    .as(cluster::jobsSummary)
                    .containsEntry("fine", 2)
                    .containsEntry("orphan", 0);
                V1alpha1TYJob stuck = cluster.job("stuck-job");
                // The controller's first status (the stage) may come before the scheduler's.
                assertThat(stuck.getStatus().getScheduling())
                    .as("the scheduler's status: %s", cluster.jobsSummary())
                    .isNotNull();
                assertThat(stuck.getStatus().getScheduling().getReason())
                    .as(cluster::jobsSummary)
                    .isEqualTo("InvalidQueue");
                assertThat(stuck.getStatus().getScheduling().getMessage())
                    .contains("queue orphan is invalid: its parent ghost does not exist");
                assertThat(treeValid(cluster, "orphan"))
                    .containsEntry("status", "False")
                    .containsEntry("reason", "InvalidQueueTree");
              });

      cluster.queue("ghost", Map.of("weight", 1));

      await("the tree fixed: the orphan's job placed and its queue valid")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                assertThat(cluster.placedPodsByQueue())
                    .as(cluster::jobsSummary)
                    .containsEntry("orphan", 2)
                    .containsEntry("fine", 2);
                assertThat(treeValid(cluster, "orphan")).containsEntry("status", "True");
              });
    }
  }

  /** The Queue's {@code TreeValid} condition, empty while it has none. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> treeValid(TenancyCluster cluster, String queue)
      throws Exception {
    Map<String, Object> object =
        (Map<String, Object>)
            new CustomObjectsApi(cluster.admin())
                .getClusterCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    ArrangerResources.QUEUES,
                    queue)
                .execute();
    Map<String, Object> status = (Map<String, Object>) object.get("status");
    List<Map<String, Object>> conditions =
        status == null ? null : (List<Map<String, Object>>) status.get("conditions");
    return conditions == null
        ? Map.of()
        : conditions.stream()
            .filter(condition -> "TreeValid".equals(condition.get("type")))
            .findFirst()
            .orElse(Map.of());
  }
}
