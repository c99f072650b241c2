package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.kube.ModelGson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import okhttp3.Call;

/**
 * {@code POST /api/v1/namespaces/{namespace}/pods}, the request {@code
 * CoreV1Api.createNamespacedPod} makes, with the pod written by {@link ModelGson}: client-java's
 * own serializer copies every nested object of the pod into a tree before writing it, which made a
 * tenth of the controller's CPU during a burst of creates (docs/performance.md). The same JSON is
 * sent: both write the models' fields by their serialized names and leave nulls and managed fields
 * out.
 */
final class PodCreateCall {

  /**
   * client-java's name for the kubeconfig's bearer token; the ApiClient's other authentications
   * apply as ever.
   */
  private static final String[] AUTHENTICATIONS = {"BearerToken"};

  private PodCreateCall() {}

  static Call of(ApiClient client, String namespace, V1Pod pod) throws ApiException {
    byte[] body = ModelGson.get().toJson(pod).getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = new HashMap<>();
    headers.put("Accept", "application/json");
    headers.put("Content-Type", "application/json");
    return client.buildCall(
        client.getBasePath(),
        "/api/v1/namespaces/" + client.escapeString(namespace) + "/pods",
        "POST",
        new ArrayList<>(),
        new ArrayList<>(),
        body,
        headers,
        new HashMap<>(),
        new HashMap<>(),
        AUTHENTICATIONS,
        null);
  }
}
