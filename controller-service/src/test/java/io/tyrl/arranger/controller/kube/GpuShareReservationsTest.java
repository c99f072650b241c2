package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.informer.cache.Cache;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.plan.PodEnvironment;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a pod about to be created needs of its GPU device, from the job's status and the cached
 * reservation. The fence refuses every write here: a state that would create or delete a
 * reservation waits without touching the API server.
 */
class GpuShareReservationsTest {

  private static final String NAMESPACE = "arranger-system";
  private static final String RESERVATION = GpuShareDevices.reservationPodName("node-a", 1);

  private final Cache<V1Pod> cached = new Cache<>();
  private final GpuShareReservations reservations =
      new GpuShareReservations(
          new CoreV1Api(new ApiClient()),
          cached,
          null,
          () -> false,
          Clock.systemUTC(),
          NAMESPACE,
          "curlimages/curl:8.10.1",
          "arranger-gpu-reservation",
          Duration.ofSeconds(30),
          Duration.ofSeconds(60));

  private static JobSnapshot job(String actorAnnotations, String seats) {
    String actorTemplate =
        RawTYJobs.template("actor")
            .replace(
                "\"metadata\": {\"labels\": {\"team\": \"rl\"}}",
                "\"metadata\": {\"labels\": {\"team\": \"rl\"}, \"annotations\": "
                    + actorAnnotations
                    + "}");
    return new JobViewMapper()
        .map(
            RawTYJobs.job(
                RawTYJobs.spec(RawTYJobs.template("learner"), actorTemplate),
                "{\"allocations\": {\"train-actor-0\": \"node-a\"}, \"gpuDevices\": "
                    + seats
                    + "}"));
  }

  private static final String SHARE = "{\"arranger.tyrl.io/gpu-fraction\": \"0.5\"}";

  private static PlannedAction.CreatePod actor0() {
    PodSlot.Worker slot = new PodSlot.Worker("train-actor-0", "actor", 0);
    return new PlannedAction.CreatePod(
        slot, "node-a", PodEnvironment.forWorker("train", slot, "10.0.0.1"));
  }

  private void cache(String phase, String deviceId, boolean terminating) {
    cache(phase, deviceId, terminating, null);
  }

  private void cache(String phase, String deviceId, boolean terminating, OffsetDateTime created) {
    Map<String, String> annotations = new HashMap<>();
    if (deviceId != null) {
      annotations.put(GpuShareDevices.DEVICE_ID_ANNOTATION, deviceId);
    }
    cached.add(
        new V1Pod()
            .metadata(
                new V1ObjectMeta()
                    .namespace(NAMESPACE)
                    .name(RESERVATION)
                    .annotations(annotations)
                    .creationTimestamp(created)
                    .deletionTimestamp(terminating ? OffsetDateTime.now() : null))
            .status(new V1PodStatus().phase(phase)));
  }

  @Test
  void aPodWithoutAShareOrWithoutASeatNeedsNoDevice() {
    assertThat(reservations.deviceFor(job("{}", "{\"train-actor-0\": 1}"), actor0()))
        .as("no gpu-fraction on the template")
        .isInstanceOf(GpuShareReservations.Device.NotShared.class);
    assertThat(reservations.deviceFor(job(SHARE, "{}"), actor0()))
        .as("a status written before seats existed")
        .isInstanceOf(GpuShareReservations.Device.NotShared.class);
  }

  @Test
  void aRunningReservationWithItsIdMakesThePodReady() {
    cache("Running", "GPU-1234", false);

    assertThat(reservations.deviceFor(job(SHARE, "{\"train-actor-0\": 1}"), actor0()))
        .isEqualTo(new GpuShareReservations.Device.Ready(1, "GPU-1234"));
  }

  @Test
  void thePodWaitsForAMissingStartingUnreportedEndedOrLeavingReservationAndSaysWhy() {
    JobSnapshot job = job(SHARE, "{\"train-actor-0\": 1}");
    Duration patience = reservations.startPatience();

    GpuShareReservations.Device.Waiting none = waiting(job);
    assertThat(none.reservation()).isEqualTo(NAMESPACE + "/" + RESERVATION);
    assertThat(none.state()).isEqualTo("was just created");
    assertThat(none.overdue(patience)).as("just created").isFalse();

    cache("Pending", null, false);
    assertThat(waiting(job).state()).isEqualTo("is Pending: no container of it has started");
    cache("Running", null, false);
    assertThat(waiting(job).state()).as("no ID written yet").isEqualTo(ReservationStates.NO_ID);
    cache("Running", "GPU-1234", true);
    assertThat(waiting(job).state()).isEqualTo("is being deleted");

    cache("Failed", "GPU-1234", false);
    GpuShareReservations.Device.Waiting ended = waiting(job);
    assertThat(ended.state()).isEqualTo("ended (Failed); it is being replaced");
    assertThat(ended.overdue(patience)).as("an ended reservation is told at once").isTrue();
  }

  @Test
  void aReservationIsOverdueOnceItIsOlderThanThePatience() {
    JobSnapshot job = job(SHARE, "{\"train-actor-0\": 1}");
    Duration patience = reservations.startPatience();

    cache("Pending", null, false, OffsetDateTime.now().minusSeconds(10));
    assertThat(waiting(job).overdue(patience)).as("10 s old").isFalse();
    cache("Pending", null, false, OffsetDateTime.now().minus(patience).minusSeconds(1));
    assertThat(waiting(job).overdue(patience)).as("older than the patience").isTrue();
  }

  @Test
  void theEventNamesThePodsTheNodeAndWhatKeepsTheReservation() {
    GpuShareReservations.Device.Waiting waiting =
        new GpuShareReservations.Device.Waiting(
            "arranger-system/r", "is Pending: ImagePullBackOff", Duration.ofMinutes(2), false);

    assertThat(GpuShareReservations.waitingMessage(List.of("a-0"), "n1", waiting))
        .isEqualTo(
            "pod \"a-0\" of node \"n1\" waits for its GPU share: reservation pod"
                + " arranger-system/r is Pending: ImagePullBackOff");
    assertThat(GpuShareReservations.waitingMessage(List.of("a-0", "a-1"), "n1", waiting))
        .startsWith("pods \"a-0\", \"a-1\" of node \"n1\" wait for their GPU share:");
  }

  private GpuShareReservations.Device.Waiting waiting(JobSnapshot job) {
    return (GpuShareReservations.Device.Waiting) reservations.deviceFor(job, actor0());
  }

  @Test
  void theReservationPodHoldsOneGpuOnItsNodeUnderItsOwnAccount() {
    V1Pod pod = reservations.reservationPod(RESERVATION, "node-a", 1);

    assertThat(pod.getSpec().getNodeName()).isEqualTo("node-a");
    assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("arranger-gpu-reservation");
    assertThat(pod.getSpec().getOverhead()).isNull();
    assertThat(pod.getMetadata().getLabels())
        .containsEntry(GpuShareDevices.RESERVATION_LABEL, "true");
    assertThat(pod.getMetadata().getAnnotations())
        .containsEntry(GpuShareDevices.NODE_ANNOTATION, "node-a")
        .containsEntry(GpuShareDevices.DEVICE_ANNOTATION, "1");
    assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits())
        .containsKey("nvidia.com/gpu");
    assertThat(pod.getSpec().getContainers().get(0).getCommand().get(2))
        .contains(GpuShareDevices.DEVICE_ID_ANNOTATION)
        .contains("NVIDIA_VISIBLE_DEVICES");
  }
}
