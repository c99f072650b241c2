package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SimulatedNodeAgentIT {

  @Test
  void runsBoundPodsFinishesLeadersAndConfirmsDeletions(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String node = TYJobFixtures.uniqueName("agent-node");
    nodes.register(NodeSpec.named(node).label(SimulatedNodeAgent.SIMULATED_LABEL, "true").build());
    String elsewhere = TYJobFixtures.uniqueName("real-node");
    nodes.register(NodeSpec.named(elsewhere).build());
    CoreV1Api core = new CoreV1Api(client);
    try (SimulatedNodeAgent agent =
        new SimulatedNodeAgent(
                controlPlane.adminClient(),
                client,
                new SimulatedNodeAgent.Timing(Duration.ofMillis(200), Duration.ofMillis(800)))
            .start()) {
      String leader = create(core, node, "leader");
      String worker = create(core, node, "worker");
      String untouched = create(core, elsewhere, "worker");

      await().atMost(Duration.ofSeconds(15)).until(() -> phase(core, leader).equals("Succeeded"));
      assertThat(phase(core, worker)).isEqualTo("Running");
      assertThat(read(core, worker).getStatus().getPodIP()).startsWith("127.");
      assertThat(phase(core, untouched))
          .as("pods on nodes the agent does not simulate")
          .isEqualTo("Pending");

      core.deleteNamespacedPod(worker, "default").execute();
      await().atMost(Duration.ofSeconds(15)).until(() -> !exists(core, worker));
    }
  }

  private static String create(CoreV1Api core, String node, String role) throws ApiException {
    String name = TYJobFixtures.uniqueName(role);
    BoundPods.create(core, name, node, Map.of(SimulatedNodeAgent.ROLE_LABEL, role));
    return name;
  }

  private static V1Pod read(CoreV1Api core, String name) throws ApiException {
    return core.readNamespacedPod(name, "default").execute();
  }

  private static String phase(CoreV1Api core, String name) throws ApiException {
    V1Pod pod = read(core, name);
    return pod.getStatus() == null || pod.getStatus().getPhase() == null
        ? ""
        : pod.getStatus().getPhase();
  }

  private static boolean exists(CoreV1Api core, String name) {
    try {
      read(core, name);
      return true;
    } catch (ApiException e) {
      return e.getCode() != 404;
    }
  }
}
