package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;

/**
 * The pod of a scheduler replica that runs as a process of the test: named as the replica's
 * identity, its view port named as the chart names it, and the IP the kubelet would report — what a
 * standby reads to find the leader's view.
 */
public final class ReplicaPods {

  private ReplicaPods() {}

  /**
   * @return the pod's name, the replica's identity
   */
  public static String create(ApiClient client, String namespace, String identity, int viewPort)
      throws ApiException {
    CoreV1Api core = new CoreV1Api(client);
    V1PodSpec spec =
        new V1PodSpec()
            .addContainersItem(
                new V1Container()
                    .name("scheduler")
                    .image("registry.local/arranger-scheduler:test")
                    .addPortsItem(new V1ContainerPort().name("view").containerPort(viewPort)));
    // The model's empty overhead map would need a RuntimeClass that defines one.
    spec.setOverhead(null);
    V1Pod pod =
        core.createNamespacedPod(
                namespace, new V1Pod().metadata(new V1ObjectMeta().name(identity)).spec(spec))
            .execute();
    pod.setStatus(new V1PodStatus().phase("Running").podIP("127.0.0.1"));
    core.replaceNamespacedPodStatus(identity, namespace, pod).execute();
    return identity;
  }
}
