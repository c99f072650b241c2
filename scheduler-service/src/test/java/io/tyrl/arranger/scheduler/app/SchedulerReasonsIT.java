package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Node;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatusScheduling;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reasons as a user meets them on the real API server: a job waiting for the same reason cycle
 * after cycle has one Event for it, counted, with the words of its status; a GPU job in a cluster
 * without a GPU node is NeverFits, as the same job asking for too much cpu is, with a message
 * naming the resource.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerReasonsIT {

  @Test
  void aJobWaitingForTheSameReasonHasOneEventCountedWithTheWordsOfItsStatus(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("repeat");
    String namespace = ClusterFixtures.namespace(client, "repeat");
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("4")
            .memory("16Gi")
            .label("arranger-test", test)
            .build());
    // No node has the label it asks for: it waits, for the same reason, as long as nothing changes.
    TYJobBuilder.named("stuck")
        .namespace(namespace)
        .leader("learner", "1", "1Gi")
        .workers("actor", 1, "1", "1Gi")
        .nodeSelector("arranger-test", test + "-nowhere")
        .create(client);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane,
            "scheduler-" + test,
            "lease-" + test,
            "config-" + test,
            Map.of("arranger.scheduler.event-repeat-interval", "1s"))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () -> {
                assertThat(events(client, namespace, "stuck"))
                    .singleElement()
                    .satisfies(
                        event ->
                            assertThat(event.getCount())
                                .as("occurrences counted")
                                .isGreaterThanOrEqualTo(4));
              });
      long cycles = scheduler.cycles();
      assertThat(cycles).as("the reason was repeated across many cycles").isGreaterThan(8);

      V1alpha1TYJobStatusScheduling scheduling =
          job(client, namespace, "stuck").getStatus().getScheduling();
      CoreV1Event event = events(client, namespace, "stuck").get(0);
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getReason()).isEqualTo(scheduling.getReason()).isEqualTo("Unschedulable");
      assertThat(event.getMessage())
          .as("the Event carries the status's words")
          .isEqualTo(scheduling.getMessage());
      assertThat(event.getSource().getComponent()).isEqualTo("arranger-scheduler");
      assertThat(event.getLastTimestamp()).isAfter(event.getFirstTimestamp());
      assertThat(scheduler.counter("arranger.events", "result", "patched"))
          .isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void aGpuJobInAClusterWithoutGpuNodesNeverFitsAsTooMuchCpuDoes(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("nogpu");
    String namespace = ClusterFixtures.namespace(client, "nogpu");
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("8")
            .memory("32Gi")
            .label("arranger-test", test)
            .build());
    List<V1Node> gpuNodes =
        new CoreV1Api(client)
            .listNode().execute().getItems().stream()
                .filter(
                    node ->
                        node.getStatus().getAllocatable() != null
                            && node.getStatus().getAllocatable().containsKey(NodeSpec.GPU))
                .toList();
    assertThat(gpuNodes).as("this test needs a cluster without a GPU node").isEmpty();
    TYJobBuilder.named("gpu")
        .namespace(namespace)
        .leader("learner", "1", "1Gi")
        .leaderRequest(NodeSpec.GPU, "1")
        .workers("actor", 1, "1", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);
    TYJobBuilder.named("cpu")
        .namespace(namespace)
        .leader("learner", "64", "1Gi")
        .workers("actor", 1, "1", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () -> {
                for (String name : List.of("gpu", "cpu")) {
                  V1alpha1TYJob job = job(client, namespace, name);
                  assertThat(job.getStatus()).as(name).isNotNull();
                  assertThat(job.getStatus().getScheduleState())
                      .as(name)
                      .hasToString("ScheduledFailed");
                  assertThat(job.getStatus().getScheduling().getReason())
                      .as(name)
                      .isEqualTo("NeverFits");
                }
              });
      assertThat(job(client, namespace, "gpu").getStatus().getScheduling().getMessage())
          .isEqualTo("pod learner requests nvidia.com/gpu 1, and no node has nvidia.com/gpu");
      assertThat(job(client, namespace, "cpu").getStatus().getScheduling().getMessage())
          .contains("cpu 64 > ");
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(events(client, namespace, "gpu"))
                      .singleElement()
                      .satisfies(
                          event -> {
                            assertThat(event.getReason()).isEqualTo("NeverFits");
                            assertThat(event.getMessage())
                                .isEqualTo(
                                    job(client, namespace, "gpu")
                                        .getStatus()
                                        .getScheduling()
                                        .getMessage());
                          }));
    }
  }

  private static V1alpha1TYJob job(ApiClient client, String namespace, String name)
      throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(job -> job.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static List<CoreV1Event> events(ApiClient client, String namespace, String job)
      throws Exception {
    return new CoreV1Api(client)
            .listNamespacedEvent(namespace)
            .fieldSelector("involvedObject.name=" + job)
            .execute()
            .getItems()
            .stream()
            .filter(event -> "Warning".equals(event.getType()))
            .toList();
  }
}
