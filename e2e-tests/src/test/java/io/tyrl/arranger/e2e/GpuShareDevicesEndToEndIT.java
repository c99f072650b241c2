package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The node gets the GPU device the scheduler chose for each share. Both services from their jars in
 * their default configuration, on one node of 3 GPUs whose kubelet plays the device plugin: a
 * learner asking a whole GPU, two actors asking half a GPU each and four asking a quarter. The
 * controller runs one reservation pod per shared device in its namespace; each sharing pod is
 * created with the ID of the GPU its device's reservation holds, the kubelet refuses none (it
 * refuses a share on a device no reservation holds, or beyond one GPU), and once the job ends its
 * reservations are deleted. A reservation that cannot start is named, with the kubelet's reason, on
 * the job whose pods wait for it.
 */
class GpuShareDevicesEndToEndIT {

  private static final String NODE = "gpu-node-0";
  private static final Duration LEADER_RUN_TIME = Duration.ofSeconds(20);

  @Test
  void eachShareRunsOnTheGpuItsDevicesReservationHoldsAndTheReservationsGoWithTheJob()
      throws Exception {
    List<NodeSpec> nodes = List.of(NodeSpec.named(NODE).cpu("32").memory("128Gi").gpus(3).build());
    try (TenancyCluster cluster = TenancyCluster.start("gpu-share", nodes, LEADER_RUN_TIME)) {
      TYJobBuilder.named("sharing")
          .namespace(TenancyCluster.JOBS_NAMESPACE)
          .leader("learner", "1", "1Gi")
          .leaderGpus("1")
          .workers("half", 2, "1", "1Gi")
          .workerGpuFraction("half", "0.5")
          .workers("quarter", 4, "1", "1Gi")
          .workerGpuFraction("quarter", "0.25")
          .set("minWorkersNum", 6)
          .create(cluster.admin());

      await("the learner and the six sharing actors run")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(
                          cluster.livePodsByJob().getOrDefault("sharing", List.of()).stream()
                              .filter(pod -> "Running".equals(pod.getStatus().getPhase()))
                              .count())
                      .as(() -> "running pods;\n" + cluster.jobsSummary() + podsSummary(cluster))
                      .isEqualTo(7));

      Map<String, Integer> seats = job(cluster).getStatus().getGpuDevices();
      assertThat(seats)
          .as("the learner took device 0 whole; the halves share device 1, four quarters device 2")
          .isEqualTo(
              Map.of(
                  "sharing-half-0",
                  1,
                  "sharing-half-1",
                  1,
                  "sharing-quarter-0",
                  2,
                  "sharing-quarter-1",
                  2,
                  "sharing-quarter-2",
                  2,
                  "sharing-quarter-3",
                  2));
      Map<String, V1Pod> reservations = reservations(cluster);
      assertThat(reservations.keySet())
          .containsExactlyInAnyOrder(
              GpuShareDevices.reservationPodName(NODE, 1),
              GpuShareDevices.reservationPodName(NODE, 2));
      Map<String, V1Pod> pods =
          cluster.livePodsByJob().get("sharing").stream()
              .collect(Collectors.toMap(pod -> pod.getMetadata().getName(), pod -> pod));
      for (Map.Entry<String, Integer> seat : seats.entrySet()) {
        V1Pod reservation =
            reservations.get(GpuShareDevices.reservationPodName(NODE, seat.getValue()));
        String id =
            reservation.getMetadata().getAnnotations().get(GpuShareDevices.DEVICE_ID_ANNOTATION);
        V1Pod pod = pods.get(seat.getKey());
        assertThat(visibleDevices(pod)).as(seat.getKey()).contains(id);
        assertThat(pod.getMetadata().getAnnotations())
            .containsEntry(GpuShareDevices.DEVICE_ANNOTATION, String.valueOf(seat.getValue()))
            .containsEntry(GpuShareDevices.DEVICE_ID_ANNOTATION, id);
      }
      assertThat(visibleDevices(pods.get("sharing-half-0")))
          .isNotEqualTo(visibleDevices(pods.get("sharing-quarter-0")));
      assertThat(visibleDevices(pods.get("sharing-learner")))
          .as("a whole GPU comes from the device plugin, not from a reservation")
          .isEmpty();
      assertThat(cluster.kubelet().gpuShareRefusals()).isEmpty();

      await("the job ends with its learner, and its reservations are deleted")
          .atMost(LEADER_RUN_TIME.plusSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                assertThat(job(cluster).getStatus().getStage().getValue()).isEqualTo("Succeeded");
                assertThat(reservations(cluster)).isEmpty();
              });
    }
  }

  /**
   * A reservation whose image cannot be pulled keeps the sharing actors from being created; the job
   * says why in a Warning Event once the patience has run out, naming the reservation and the
   * kubelet's reason, while its whole-GPU learner runs.
   */
  @Test
  void aReservationThatCannotStartIsNamedOnTheWaitingJob() throws Exception {
    List<NodeSpec> nodes = List.of(NodeSpec.named(NODE).cpu("32").memory("128Gi").gpus(2).build());
    Map<String, String> unpullable =
        Map.of(
            "arranger.controller.gpu-sharing.image",
            SimulatedNodeAgent.UNPULLABLE_REGISTRY + "curl:8.10.1",
            "arranger.controller.gpu-sharing.start-patience",
            "3s");
    try (TenancyCluster cluster =
        TenancyCluster.start("gpu-share-stuck", nodes, Duration.ofMinutes(30), unpullable)) {
      TYJobBuilder.named("sharing")
          .namespace(TenancyCluster.JOBS_NAMESPACE)
          .leader("learner", "1", "1Gi")
          .leaderGpus("1")
          .workers("half", 2, "1", "1Gi")
          .workerGpuFraction("half", "0.5")
          .set("minWorkersNum", 2)
          .create(cluster.admin());
      String reservation =
          cluster.systemNamespace() + "/" + GpuShareDevices.reservationPodName(NODE, 1);

      await("the job tells why its actors wait")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () ->
                  assertThat(reservationWaitingMessages(cluster))
                      .as(() -> cluster.jobsSummary() + podsSummary(cluster))
                      .anySatisfy(
                          message ->
                              assertThat(message)
                                  .contains("\"sharing-half-0\", \"sharing-half-1\"")
                                  .contains("node \"" + NODE + "\"")
                                  .contains(reservation + " is Pending: ImagePullBackOff")));
      assertThat(job(cluster).getStatus().getStage().getValue()).isEqualTo("Starting");
      assertThat(cluster.livePodsByJob().get("sharing"))
          .as("the learner runs; no actor was created without its GPU")
          .extracting(pod -> pod.getMetadata().getName())
          .containsExactly("sharing-learner");
      assertThat(cluster.kubelet().gpuShareRefusals()).isEmpty();
    }
  }

  private static List<String> reservationWaitingMessages(TenancyCluster cluster)
      throws ApiException {
    return new CoreV1Api(cluster.admin())
        .listNamespacedEvent(TenancyCluster.JOBS_NAMESPACE).execute().getItems().stream()
            .filter(event -> LifecycleReasons.GPU_RESERVATION_WAITING.equals(event.getReason()))
            .filter(event -> "sharing".equals(event.getInvolvedObject().getName()))
            .map(CoreV1Event::getMessage)
            .toList();
  }

  private static String podsSummary(TenancyCluster cluster) {
    try {
      StringBuilder summary = new StringBuilder("\npods:");
      for (V1Pod pod :
          new CoreV1Api(cluster.admin()).listPodForAllNamespaces().execute().getItems()) {
        summary
            .append("\n  ")
            .append(pod.getMetadata().getNamespace())
            .append('/')
            .append(pod.getMetadata().getName())
            .append(' ')
            .append(pod.getStatus() == null ? null : pod.getStatus().getPhase())
            .append(' ')
            .append(pod.getStatus() == null ? null : pod.getStatus().getReason())
            .append(' ')
            .append(pod.getMetadata().getAnnotations());
      }
      return summary.toString();
    } catch (ApiException e) {
      return "\npods: not listed (HTTP " + e.getCode() + ")";
    }
  }

  private static V1alpha1TYJob job(TenancyCluster cluster) throws ApiException {
    return ArrangerResources.tyJobs(cluster.admin())
        .get(TenancyCluster.JOBS_NAMESPACE, "sharing")
        .throwsApiException()
        .getObject();
  }

  /** The reservation pods that are not being deleted, by name. */
  private static Map<String, V1Pod> reservations(TenancyCluster cluster) throws ApiException {
    Map<String, V1Pod> byName = new HashMap<>();
    for (V1Pod pod :
        new CoreV1Api(cluster.admin())
            .listNamespacedPod(cluster.systemNamespace())
            .labelSelector(GpuShareDevices.RESERVATION_LABEL + "=true")
            .execute()
            .getItems()) {
      if (pod.getMetadata().getDeletionTimestamp() == null) {
        byName.put(pod.getMetadata().getName(), pod);
      }
    }
    return byName;
  }

  private static Optional<String> visibleDevices(V1Pod pod) {
    return pod.getSpec().getContainers().get(0).getEnv() == null
        ? Optional.empty()
        : pod.getSpec().getContainers().get(0).getEnv().stream()
            .filter(variable -> GpuShareDevices.VISIBLE_DEVICES.equals(variable.getName()))
            .map(V1EnvVar::getValue)
            .findFirst();
  }
}
