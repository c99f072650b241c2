package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1Queue;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class LocalClusterIT {

  @Test
  void populatesTheDefaultQueueAndAReadyFleet(ApiClient client) throws Exception {
    List<NodeSpec> fleet =
        LocalCluster.fleet(4).stream()
            .map(
                spec ->
                    new NodeSpec(
                        "local-" + spec.name(),
                        spec.capacity(),
                        spec.labels(),
                        spec.taints(),
                        spec.ready()))
            .toList();

    LocalCluster.populate(client, fleet);
    LocalCluster.populate(client, List.of());

    V1alpha1Queue queue =
        ArrangerResources.queues(client).get("default").throwsApiException().getObject();
    assertThat(queue.getSpec().getWeight()).isEqualTo(1);
    List<V1Node> nodes =
        new CoreV1Api(client)
                .listNode()
                .labelSelector("arranger.tyrl.io/simulated=true")
                .execute()
                .getItems()
                .stream()
                .filter(node -> node.getMetadata().getName().startsWith("local-"))
                .toList();
    assertThat(nodes).hasSize(4);
    assertThat(nodes)
        .filteredOn(node -> node.getStatus().getAllocatable().containsKey("nvidia.com/gpu"))
        .hasSize(1);
    assertThat(nodes)
        .allSatisfy(
            node ->
                assertThat(node.getStatus().getConditions())
                    .anySatisfy(
                        c ->
                            assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Ready=True")));
  }

  @Test
  void aFleetOfEightHasGpuNodesAndATaintedDedicatedPool() {
    List<NodeSpec> fleet = LocalCluster.fleet(8);

    assertThat(fleet).filteredOn(n -> n.capacity().containsKey(NodeSpec.GPU)).hasSize(2);
    assertThat(fleet)
        .filteredOn(n -> "rl".equals(n.labels().get("pool.example.com/name")))
        .hasSize(2)
        .allSatisfy(
            n ->
                assertThat(n.taints())
                    .singleElement()
                    .satisfies(
                        t ->
                            assertThat(t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                                .isEqualTo("pool.example.com/dedicated=rl:NoSchedule")));
  }

  @Test
  void refusesAnEmptyFleet() {
    assertThatThrownBy(() -> LocalCluster.fleet(0))
        .hasMessageContaining("--nodes")
        .hasMessageContaining("0");
  }
}
