package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1Taint;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SimulatedClusterIT {

  @Test
  void registeredNodeIsReadyWithCapacityLabelsAndOnlyItsOwnTaints(SimulatedNodes nodes) {
    NodeSpec spec =
        NodeSpec.named(TYJobFixtures.uniqueName("gpu-node"))
            .cpu("64")
            .memory("256Gi")
            .gpus(8)
            .pods(500)
            .label("accelerator", "a100")
            .taint("gpu", "a100", "NoSchedule")
            .build();

    V1Node node = nodes.register(spec);

    assertThat(node.getStatus().getAllocatable().get("nvidia.com/gpu").getNumber())
        .isEqualByComparingTo("8");
    assertThat(node.getStatus().getAllocatable().get("cpu").getNumber()).isEqualByComparingTo("64");
    assertThat(node.getStatus().getCapacity().get("pods").getNumber()).isEqualByComparingTo("500");
    assertThat(readyCondition(node).getStatus()).isEqualTo("True");
    assertThat(node.getMetadata().getLabels()).containsEntry("accelerator", "a100");
    assertThat(node.getSpec().getTaints()).extracting(V1Taint::getKey).containsExactly("gpu");
  }

  @Test
  void nodeCanBeReportedNotReady(SimulatedNodes nodes) {
    NodeSpec spec = NodeSpec.named(TYJobFixtures.uniqueName("flaky")).build();
    nodes.register(spec);

    V1Node node = nodes.markNotReady(spec);

    assertThat(readyCondition(node).getStatus()).isEqualTo("False");
  }

  @Test
  void kubeletDrivesBoundPodsThroughTheirPhases(
      ApiClient client, SimulatedNodes nodes, SimulatedKubelet kubelet) throws Exception {
    String nodeName = TYJobFixtures.uniqueName("node");
    nodes.register(NodeSpec.named(nodeName).build());
    CoreV1Api core = new CoreV1Api(client);
    String running = createBoundPod(core, nodeName);
    String refused = createBoundPod(core, nodeName);

    V1Pod runningPod = kubelet.run("default", running);
    V1Pod refusedPod = kubelet.reject("default", refused, "OutOfcpu");

    assertThat(runningPod.getStatus().getPhase()).isEqualTo("Running");
    assertThat(runningPod.getStatus().getPodIP()).startsWith("127.");
    assertThat(runningPod.getStatus().getConditions())
        .filteredOn(c -> "Ready".equals(c.getType()))
        .extracting(V1PodCondition::getStatus)
        .containsExactly("True");
    assertThat(refusedPod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(refusedPod.getStatus().getReason()).isEqualTo("OutOfcpu");

    V1Pod succeeded = kubelet.succeed("default", running);
    assertThat(succeeded.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(succeeded.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(s -> assertThat(s.getState().getTerminated().getExitCode()).isZero());
  }

  private static String createBoundPod(CoreV1Api core, String nodeName) throws Exception {
    String name = TYJobFixtures.uniqueName("pod");
    BoundPods.create(core, name, nodeName, Map.of());
    return name;
  }

  private static V1NodeCondition readyCondition(V1Node node) {
    return node.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst()
        .orElseThrow();
  }
}
