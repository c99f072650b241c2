package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ContainerState;
import io.kubernetes.client.openapi.models.V1ContainerStateTerminated;
import io.kubernetes.client.openapi.models.V1ContainerStateWaiting;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a job is told of a reservation that keeps its pods waiting, from the kubelet's report. */
class ReservationStatesTest {

  private static V1Pod pod(V1PodStatus status) {
    return new V1Pod().metadata(new V1ObjectMeta().name("r")).status(status);
  }

  private static V1ContainerStatus container(V1ContainerState state) {
    return new V1ContainerStatus().name("reserve").state(state);
  }

  @Test
  void aContainerWaitingForItsImageIsQuotedWithTheKubeletsMessage() {
    V1Pod pulling =
        pod(
            new V1PodStatus()
                .phase("Pending")
                .containerStatuses(
                    List.of(
                        container(
                            new V1ContainerState()
                                .waiting(
                                    new V1ContainerStateWaiting()
                                        .reason("ImagePullBackOff")
                                        .message(
                                            "Back-off pulling image \"curlimages/curl:8.10.1\""))))));

    assertThat(ReservationStates.notRunning(pulling))
        .isEqualTo(
            "is Pending: ImagePullBackOff (Back-off pulling image \"curlimages/curl:8.10.1\")");
  }

  @Test
  void aFalseConditionOrThePodsOwnReasonExplainsAPodWithoutContainerStatuses() {
    V1Pod unready =
        pod(
            new V1PodStatus()
                .phase("Pending")
                .conditions(
                    List.of(
                        new V1PodCondition().type("PodScheduled").status("True"),
                        new V1PodCondition()
                            .type("Initialized")
                            .status("False")
                            .reason("ContainersNotInitialized"))));
    V1Pod evicted = pod(new V1PodStatus().reason("Evicted").message("node low on memory"));

    assertThat(ReservationStates.notRunning(unready))
        .isEqualTo("is Pending: ContainersNotInitialized");
    assertThat(ReservationStates.notRunning(evicted))
        .isEqualTo("is Pending: Evicted (node low on memory)");
    assertThat(ReservationStates.notRunning(pod(null)))
        .isEqualTo("is Pending: no container of it has started");
  }

  @Test
  void anEndedReservationSaysHowTheNodeRefusedItOrWhatItsScriptSaid() {
    V1Pod refused =
        pod(
            new V1PodStatus()
                .phase("Failed")
                .reason("UnexpectedAdmissionError")
                .message("Allocate failed due to no healthy devices present"));
    V1Pod scriptFailed =
        pod(
            new V1PodStatus()
                .phase("Failed")
                .containerStatuses(
                    List.of(
                        container(
                            new V1ContainerState()
                                .terminated(
                                    new V1ContainerStateTerminated()
                                        .exitCode(1)
                                        .message("no GPU ID in NVIDIA_VISIBLE_DEVICES ('')\n"))))));

    assertThat(ReservationStates.ended(refused))
        .isEqualTo(
            "ended (Failed: UnexpectedAdmissionError (Allocate failed due to no healthy devices"
                + " present))");
    assertThat(ReservationStates.ended(scriptFailed))
        .isEqualTo(
            "ended (Failed: its container exited 1: no GPU ID in NVIDIA_VISIBLE_DEVICES (''))");
  }

  @Test
  void aLongMessageIsCutSoTheEventStaysReadable() {
    String log = "x".repeat(1000);
    V1Pod chatty =
        pod(
            new V1PodStatus()
                .phase("Pending")
                .containerStatuses(
                    List.of(
                        container(
                            new V1ContainerState()
                                .waiting(
                                    new V1ContainerStateWaiting()
                                        .reason("CrashLoopBackOff")
                                        .message(log))))));

    assertThat(ReservationStates.notRunning(chatty))
        .hasSize("is Pending: CrashLoopBackOff (".length() + ReservationStates.QUOTED_LIMIT + 1)
        .endsWith("…)");
  }
}
