package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.util.Map;

/** Pods created already bound to a node, as a scheduler would have left them, for the ITs. */
final class BoundPods {

  static final String NAMESPACE = "default";

  private BoundPods() {}

  /**
   * Creates a pod of that name bound to the node, with these labels; it stays Pending until a
   * kubelet (real or simulated) reports on it.
   *
   * @return the pod's uid
   */
  static String create(CoreV1Api core, String name, String node, Map<String, String> labels)
      throws ApiException {
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName(node)
            .restartPolicy("Never")
            .addContainersItem(new V1Container().name("main").image("registry.local/rl/actor:1"));
    // client-java 24 starts maps empty, and the 1.20 API server refuses an empty overhead.
    spec.setOverhead(null);
    return core.createNamespacedPod(
            NAMESPACE,
            new V1Pod().metadata(new V1ObjectMeta().name(name).labels(labels)).spec(spec))
        .execute()
        .getMetadata()
        .getUid();
  }
}
