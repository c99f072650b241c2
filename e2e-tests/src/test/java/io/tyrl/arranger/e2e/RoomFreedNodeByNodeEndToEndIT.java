package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedKubelet;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Room on a real cluster comes back a node at a time, not all at once: 8 nodes × 4 cpu full of pods
 * Arranger does not own, 16 two-cpu jobs waiting in each of two queues of weights 1 and 3, and the
 * other pods end node after node. Both services from their jars, the scheduler in its default
 * configuration: within 10 of the scheduler's periods of the last node freeing, the queues hold 8
 * and 24 cpu, and keep them. The weight-1 queue sorts first by name, so every tie on the way goes
 * its way.
 */
class RoomFreedNodeByNodeEndToEndIT {

  private static final String OTHERS_NAMESPACE = "not-arranger";
  private static final String LIGHT = "a-light";
  private static final String HEAVY = "b-heavy";
  private static final int NODES = 8;
  private static final int CPU_PER_NODE = 4;
  private static final int PERIODS_TO_SHARE = 10;
  private static final int CYCLES_STABLE = 20;

  @Test
  void roomFreedNodeByNodeEndsSplitByTheQueuesWeightsWithinTenPeriods() throws Exception {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(
          NodeSpec.named("cpu-node-" + i)
              .cpu(Integer.toString(CPU_PER_NODE))
              .memory("64Gi")
              .build());
    }
    try (TenancyCluster cluster = TenancyCluster.start("room-freed", nodes);
        ClusterInvariants invariants =
            new ClusterInvariants(cluster.admin(), TenancyCluster.JOBS_NAMESPACE).start()) {
      CoreV1Api core = new CoreV1Api(cluster.admin());
      SimulatedKubelet kubelet = new SimulatedKubelet(cluster.admin());
      core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(OTHERS_NAMESPACE)))
          .execute();
      for (int node = 0; node < NODES; node++) {
        for (int k = 0; k < CPU_PER_NODE; k++) {
          core.createNamespacedPod(OTHERS_NAMESPACE, otherPod(node, k)).execute();
        }
      }
      await("the other pods run")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  core.listNamespacedPod(OTHERS_NAMESPACE).execute().getItems().stream()
                          .filter(pod -> "Running".equals(pod.getStatus().getPhase()))
                          .count()
                      == NODES * CPU_PER_NODE);

      cluster.queue(LIGHT, 1);
      cluster.queue(HEAVY, 3);
      for (int i = 0; i < 16; i++) {
        twoCpuJob(LIGHT + "-" + i, LIGHT).create(cluster.admin());
        twoCpuJob(HEAVY + "-" + i, HEAVY).create(cluster.admin());
      }
      await("every job waits, none placed on the full cluster")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(cluster.jobs())
                      .as(() -> cluster.jobsSummary())
                      .hasSize(32)
                      .allMatch(RoomFreedNodeByNodeEndToEndIT::waitsUnplaced));

      // Node after node, each node's pods ending together, at the pace the API server takes the
      // kubelet's reports: the scheduler's cycles see the room arrive in uneven steps, as they do
      // when work ends on a real cluster, not one pod per cycle.
      for (int node = 0; node < NODES; node++) {
        for (int k = 0; k < CPU_PER_NODE; k++) {
          kubelet.succeed(OTHERS_NAMESPACE, otherPodName(node, k));
        }
      }
      long lastNodeFreed = cluster.cycles();

      long sharedAt =
          cluster.awaitPlacedByQueue(Map.of(LIGHT, 8, HEAVY, 24), PERIODS_TO_SHARE, lastNodeFreed);

      await("the split holds for " + CYCLES_STABLE + " more cycles")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                assertThat(cluster.placedPodsByQueue())
                    .as("cpu placed per queue after the split was reached")
                    .isEqualTo(Map.of(LIGHT, 8, HEAVY, 24));
                return cluster.cycles() >= sharedAt + CYCLES_STABLE;
              });
      await("the Queue statuses agree")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(cluster.queueAllocated(LIGHT, "cpu")).isEqualByComparingTo("8");
                assertThat(cluster.queueAllocated(HEAVY, "cpu")).isEqualByComparingTo("24");
              });
      // Only the nodes: a job whose whole gang is reclaimed has no allocations while the
      // controller's stage still says Starting or Running, until it reschedules the job.
      assertThat(invariants.violations()).filteredOn(v -> v.contains("over-committed")).isEmpty();
    }
  }

  private static boolean waitsUnplaced(V1alpha1TYJob job) {
    return job.getStatus() != null
        && job.getStatus().getScheduling() != null
        && job.getStatus().getScheduling().getReason() != null
        && (job.getStatus().getAllocations() == null || job.getStatus().getAllocations().isEmpty());
  }

  private static TYJobBuilder twoCpuJob(String name, String queue) {
    return TYJobBuilder.named(name)
        .namespace(TenancyCluster.JOBS_NAMESPACE)
        .leader("learner", "1", "1Gi")
        .workers("actor", 1, "1", "1Gi")
        .set("minWorkersNum", 1)
        .set("queue", queue);
  }

  private static String otherPodName(int node, int k) {
    return "other-" + node + "-" + k;
  }

  /** A pod bound to its node by name, as another scheduler or a DaemonSet would leave it. */
  private static V1Pod otherPod(int node, int k) {
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName("cpu-node-" + node)
            .containers(
                List.of(
                    new V1Container()
                        .name("work")
                        .image("registry.local/other:1")
                        .resources(
                            new V1ResourceRequirements()
                                .requests(
                                    Map.of(
                                        "cpu",
                                        new Quantity("1"),
                                        "memory",
                                        new Quantity("1Gi"))))));
    // The client's model would send an empty overhead, which the API server refuses.
    spec.setOverhead(null);
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(otherPodName(node, k)).namespace(OTHERS_NAMESPACE))
        .spec(spec);
  }
}
