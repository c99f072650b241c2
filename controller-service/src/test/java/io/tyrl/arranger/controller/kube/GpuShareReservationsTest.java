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
          Duration.ofSeconds(30));

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
  void thePodWaitsForAMissingStartingUnreportedEndedOrLeavingReservation() {
    JobSnapshot job = job(SHARE, "{\"train-actor-0\": 1}");
    GpuShareReservations.Device waiting = new GpuShareReservations.Device.Waiting(RESERVATION);

    assertThat(reservations.deviceFor(job, actor0())).as("none yet").isEqualTo(waiting);
    cache("Pending", null, false);
    assertThat(reservations.deviceFor(job, actor0())).as("not started").isEqualTo(waiting);
    cache("Running", null, false);
    assertThat(reservations.deviceFor(job, actor0())).as("no ID written yet").isEqualTo(waiting);
    cache("Failed", "GPU-1234", false);
    assertThat(reservations.deviceFor(job, actor0())).as("ended").isEqualTo(waiting);
    cache("Running", "GPU-1234", true);
    assertThat(reservations.deviceFor(job, actor0())).as("being deleted").isEqualTo(waiting);
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
