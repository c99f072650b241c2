package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SimulatedKubeletIT {

  private static final String NAMESPACE = "default";

  @Test
  void endsAndRemovesOnlyThePodOfItsUidNeverALaterPodOfTheSameName(ApiClient client)
      throws Exception {
    CoreV1Api core = new CoreV1Api(client);
    SimulatedKubelet kubelet = new SimulatedKubelet(client);
    String name = TYJobFixtures.uniqueName("worker");
    String node = TYJobFixtures.uniqueName("node");
    String first = create(core, name, node);
    core.deleteNamespacedPod(name, NAMESPACE)
        .body(new V1DeleteOptions().gracePeriodSeconds(0L))
        .execute();
    String second = create(core, name, node);

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

    String third = create(core, name, node);
    assertThat(kubelet.succeed(NAMESPACE, name, third)).isTrue();
    assertThat(core.readNamespacedPod(name, NAMESPACE).execute().getStatus().getPhase())
        .isEqualTo("Succeeded");
  }

  /** A pod bound to a node no kubelet runs on: it stays Pending until told otherwise. */
  private static String create(CoreV1Api core, String name, String node) throws ApiException {
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName(node)
            .restartPolicy("Never")
            .addContainersItem(new V1Container().name("main").image("registry.local/rl/agent:1"));
    // The client sends an empty overhead by default, which the API server refuses without a
    // RuntimeClass.
    spec.setOverhead(null);
    return core.createNamespacedPod(
            NAMESPACE, new V1Pod().metadata(new V1ObjectMeta().name(name)).spec(spec))
        .execute()
        .getMetadata()
        .getUid();
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
