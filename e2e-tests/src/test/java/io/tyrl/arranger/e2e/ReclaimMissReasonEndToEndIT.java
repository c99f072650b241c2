package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Why-pending through both services, the scheduler in its default configuration, when reclaim
 * searched and evicted no one: team B's two rigid jobs hold the cluster's 8 GPUs, protected by a
 * {@code reclaimMinRuntime} of an hour; team A, guaranteed 4, submits a job of 4. A waits, and its
 * status and Event say that reclaim found no room and why — its guarantee, whose pods it looked at,
 * and the minimum runtime keeping them — the same words every cycle, so the Event is counted, not
 * written again.
 */
class ReclaimMissReasonEndToEndIT {

  private static final String GPU = NodeSpec.GPU;
  private static final int CYCLES_WATCHED = 10;

  @Test
  void aJobReclaimCouldNotHelpIsToldWhyInItsStatusAndOneCountedEvent() throws Exception {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      nodes.add(NodeSpec.named("gpu-node-" + i).cpu("32").memory("128Gi").gpus(4).build());
    }
    try (TenancyCluster cluster = TenancyCluster.start("reclaim-miss", nodes);
        ClusterInvariants invariants =
            new ClusterInvariants(cluster.admin(), TenancyCluster.JOBS_NAMESPACE).start()) {
      cluster.queue("team-a", Map.of("weight", 1, "guarantee", Map.of(GPU, "4")));
      cluster.queue("team-b", Map.of("weight", 1, "reclaimMinRuntime", "1h"));
      for (String name : List.of("b-1", "b-2")) {
        TenancyCluster.gpuJob(name, "team-b", 3, 3).create(cluster.admin());
      }
      await("team B holds all 8 GPUs")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(cluster.placedPodsByQueue())
                      .as(cluster::jobsSummary)
                      .isEqualTo(Map.of("team-b", 8)));

      TenancyCluster.gpuJob("a-1", "team-a", 3, 3).create(cluster.admin());

      String expectedStart =
          "reclaim found no room: queue team-a holds 0 of its 4 nvidia.com/gpu guarantee; on no"
              + " node would the pods it may take or move (of queue team-b) make room for its"
              + " learner (";
      String expectedEnd = "; jobs of queue team-b may not go whole before their reclaimMinRuntime";
      await("a-1's status says why reclaim evicted no one")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(message(cluster, "a-1"))
                      .as(cluster::jobsSummary)
                      .contains("; " + expectedStart)
                      .endsWith(expectedEnd));
      String told = message(cluster, "a-1");
      long toldAt = cluster.cycles();

      await(CYCLES_WATCHED + " more cycles")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                assertThat(message(cluster, "a-1"))
                    .as("the same words every cycle")
                    .isEqualTo(told);
                return cluster.cycles() >= toldAt + CYCLES_WATCHED;
              });
      // Events are recorded after the status write that causes them, so they are awaited.
      await("one Event with the status's words")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(eventsWithMessage(cluster, "a-1", told))
                      .as("Events of a-1 carrying its reason")
                      .hasSize(1));
      assertThat(cluster.placedPodsByQueue()).isEqualTo(Map.of("team-a", 0, "team-b", 8));
      assertThat(cluster.deletedPods()).as("no pod evicted").isEmpty();
      assertThat(invariants.violations()).isEmpty();
    }
  }

  private static String message(TenancyCluster cluster, String name) throws Exception {
    V1alpha1TYJob job = cluster.job(name);
    return job.getStatus() == null || job.getStatus().getScheduling() == null
        ? "(no scheduling status)"
        : job.getStatus().getScheduling().getMessage();
  }

  private static List<CoreV1Event> eventsWithMessage(
      TenancyCluster cluster, String name, String message) throws Exception {
    return new CoreV1Api(cluster.admin())
            .listNamespacedEvent(TenancyCluster.JOBS_NAMESPACE)
            .fieldSelector("involvedObject.name=" + name)
            .execute()
            .getItems()
            .stream()
            .filter(event -> message.equals(event.getMessage()))
            .toList();
  }
}
