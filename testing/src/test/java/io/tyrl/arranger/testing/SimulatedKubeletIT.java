package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SimulatedKubeletIT {

  private static final String NAMESPACE = BoundPods.NAMESPACE;

  @Test
  void endsAndRemovesOnlyThePodOfItsUidNeverALaterPodOfTheSameName(ApiClient client)
      throws Exception {
    CoreV1Api core = new CoreV1Api(client);
    SimulatedKubelet kubelet = new SimulatedKubelet(client);
    String name = TYJobFixtures.uniqueName("worker");
    String node = TYJobFixtures.uniqueName("node");
    String first = BoundPods.create(core, name, node, Map.of());
    core.deleteNamespacedPod(name, NAMESPACE)
        .body(new V1DeleteOptions().gracePeriodSeconds(0L))
        .execute();
    String second = BoundPods.create(core, name, node, Map.of());

    assertThat(kubelet.succeed(NAMESPACE, name, first)).isFalse();
    assertThat(kubelet.confirmDeletion(NAMESPACE, name, first)).isFalse();
    V1Pod untouched = core.readNamespacedPod(name, NAMESPACE).execute();
    assertThat(untouched.getMetadata().getUid()).isEqualTo(second);
    assertThat(untouched.getStatus().getPhase()).isEqualTo("Pending");

    core.deleteNamespacedPod(name, NAMESPACE).execute();
    assertThat(
            core.readNamespacedPod(name, NAMESPACE).execute().getMetadata().getDeletionTimestamp())
        .as("a bound pod waits for its kubelet to confirm the deletion")
        .isNotNull();
    assertThat(kubelet.confirmDeletion(NAMESPACE, name, first)).isFalse();
    assertThat(exists(core, name)).isTrue();
    assertThat(kubelet.confirmDeletion(NAMESPACE, name, second)).isTrue();
    assertThat(exists(core, name)).isFalse();
    assertThat(kubelet.confirmDeletion(NAMESPACE, name, second)).isFalse();

    String third = BoundPods.create(core, name, node, Map.of());
    assertThat(kubelet.succeed(NAMESPACE, name, third)).isTrue();
    assertThat(core.readNamespacedPod(name, NAMESPACE).execute().getStatus().getPhase())
        .isEqualTo("Succeeded");
  }

  private static boolean exists(CoreV1Api core, String name) {
    try {
      core.readNamespacedPod(name, NAMESPACE).execute();
      return true;
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw new IllegalStateException(e);
    }
  }
}
