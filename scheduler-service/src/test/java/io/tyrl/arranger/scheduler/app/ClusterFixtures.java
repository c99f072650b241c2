package io.tyrl.arranger.scheduler.app;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Namespaces, foreign pods and TYJob reads for the scheduler's integration tests. */
final class ClusterFixtures {

  private ClusterFixtures() {}

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
  }

  static String namespace(ApiClient client, String prefix) throws ApiException {
    String name = unique(prefix);
    new CoreV1Api(client)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name)))
        .execute();
    return name;
  }

  /** A pod Arranger does not own, bound to a node as another scheduler would have. */
  static V1Pod foreignPod(
      ApiClient client, String namespace, String node, String cpu, String memory)
      throws ApiException {
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName(node)
            .restartPolicy("Never")
            .addContainersItem(
                new V1Container()
                    .name("main")
                    .image("registry.local/other:1")
                    .resources(
                        new V1ResourceRequirements()
                            .requests(
                                Map.of(
                                    "cpu",
                                    Quantity.fromString(cpu),
                                    "memory",
                                    Quantity.fromString(memory)))));
    spec.setOverhead(null);
    return new CoreV1Api(client)
        .createNamespacedPod(
            namespace, new V1Pod().metadata(new V1ObjectMeta().name(unique("foreign"))).spec(spec))
        .execute();
  }

  static List<V1alpha1TYJob> jobs(ApiClient client, String namespace) throws ApiException {
    return ArrangerResources.tyJobs(client)
        .list(namespace)
        .throwsApiException()
        .getObject()
        .getItems();
  }
}
