package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated device plugin refuses what a node could not honour, so the e2e tests can fail. */
class SimulatedGpuDevicesTest {

  private static V1Pod pod(
      String name, Map<String, String> labels, Map<String, String> annotations) {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .namespace("ns")
                .name(name)
                .uid(name + "-uid")
                .labels(labels)
                .annotations(annotations))
        .spec(new V1PodSpec().nodeName("n1").containers(List.of(new V1Container().name("c"))));
  }

  private static V1Pod reservation(String name) {
    V1Pod pod = pod(name, Map.of(GpuShareDevices.RESERVATION_LABEL, "true"), Map.of());
    pod.getSpec()
        .getContainers()
        .get(0)
        .resources(
            new V1ResourceRequirements()
                .limits(Map.of(GpuFraction.GPU_RESOURCE, Quantity.fromString("1"))));
    return pod;
  }

  private static V1Pod share(String name, String fraction, String deviceId) {
    V1Pod pod = pod(name, Map.of(), Map.of(GpuFraction.ANNOTATION, fraction));
    if (deviceId != null) {
      pod.getSpec()
          .getContainers()
          .get(0)
          .env(List.of(new V1EnvVar().name(GpuShareDevices.VISIBLE_DEVICES).value(deviceId)));
    }
    return pod;
  }

  @Test
  void sharesFitTheirReservedDeviceUpToOneGpuAndNoFurther() {
    SimulatedGpuDevices devices = new SimulatedGpuDevices();
    V1Pod first = reservation("r0");
    V1Pod second = reservation("r1");

    assertThat(devices.admit(first, "n1", 2)).isEmpty();
    assertThat(devices.admit(second, "n1", 2)).isEmpty();
    String id = devices.reservedId(first).orElseThrow();
    assertThat(devices.reservedId(second)).isPresent().get().isNotEqualTo(id);

    assertThat(devices.admit(share("a", "0.5", id), "n1", 2)).isEmpty();
    assertThat(devices.admit(share("b", "0.5", id), "n1", 2)).isEmpty();
    assertThat(devices.admit(share("c", "0.25", id), "n1", 2))
        .get()
        .asString()
        .contains("would hold 1250m");
    devices.release(share("a", "0.5", id));
    assertThat(devices.admit(share("c", "0.25", id), "n1", 2)).isEmpty();
    assertThat(devices.refusals()).hasSize(1);
  }

  @Test
  void aShareWithoutItsDeviceOrOnADeviceNoReservationHoldsIsRefused() {
    SimulatedGpuDevices devices = new SimulatedGpuDevices();
    V1Pod reserved = reservation("r0");
    devices.admit(reserved, "n1", 1);

    assertThat(devices.admit(share("no-id", "0.5", null), "n1", 1))
        .get()
        .asString()
        .contains(GpuShareDevices.VISIBLE_DEVICES);
    assertThat(devices.admit(share("elsewhere", "0.5", "GPU-n2-0"), "n1", 1))
        .get()
        .asString()
        .contains("no GPU reservation on n1 holds GPU-n2-0");
    devices.release(reserved);
    assertThat(devices.admit(share("after", "0.5", SimulatedGpuDevices.id("n1", 0)), "n1", 1))
        .as("the reservation is gone")
        .isPresent();
  }
}
