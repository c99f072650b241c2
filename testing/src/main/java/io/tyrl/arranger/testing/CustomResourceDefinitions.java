package io.tyrl.arranger.testing;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionCondition;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.Yaml;

/**
 * Installs Arranger's CRDs (the files shipped in shared-crd-model) and waits until they are
 * Established. The files are sent as they are, not through client-java's typed CRD model: that
 * model starts every list and map empty and would send {@code dependencies: {}} and friends, which
 * the API server refuses.
 */
public final class CustomResourceDefinitions {

  private static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(30);

  private CustomResourceDefinitions() {}

  public static List<JsonObject> load() {
    List<JsonObject> crds = new ArrayList<>();
    Gson gson = new Gson();
    for (String resource : ArrangerResources.CRD_RESOURCES) {
      try (InputStream in =
          CustomResourceDefinitions.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("CRD resource " + resource + " is not on the classpath");
        }
        Object document = new Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
        crds.add(gson.toJsonTree(document).getAsJsonObject());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read CRD " + resource, e);
      }
    }
    return crds;
  }

  /**
   * Creates (or replaces) every CRD and returns them once the API server reports them Established.
   */
  public static List<V1CustomResourceDefinition> install(ApiClient client) {
    ApiextensionsV1Api api = new ApiextensionsV1Api(client);
    DynamicKubernetesApi crds =
        new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
    List<V1CustomResourceDefinition> established = new ArrayList<>();
    for (JsonObject crd : load()) {
      DynamicKubernetesObject object = new DynamicKubernetesObject(crd);
      String name = object.getMetadata().getName();
      KubernetesApiResponse<DynamicKubernetesObject> created = crds.create(object);
      if (created.getHttpStatusCode() == 409) {
        DynamicKubernetesObject current = requireSuccess(crds.get(name), "read", name).getObject();
        crd.getAsJsonObject("metadata")
            .addProperty("resourceVersion", current.getMetadata().getResourceVersion());
        requireSuccess(crds.update(new DynamicKubernetesObject(crd)), "replace", name);
      } else {
        requireSuccess(created, "create", name);
      }
      established.add(awaitEstablished(api, name));
    }
    return established;
  }

  private static KubernetesApiResponse<DynamicKubernetesObject> requireSuccess(
      KubernetesApiResponse<DynamicKubernetesObject> response, String verb, String name) {
    if (!response.isSuccess()) {
      throw new IllegalStateException(
          "cannot "
              + verb
              + " CRD "
              + name
              + " (HTTP "
              + response.getHttpStatusCode()
              + "): "
              + (response.getStatus() == null ? "no status" : response.getStatus().getMessage()));
    }
    return response;
  }

  private static V1CustomResourceDefinition awaitEstablished(ApiextensionsV1Api api, String name) {
    Instant deadline = Instant.now().plus(ESTABLISH_TIMEOUT);
    while (true) {
      try {
        V1CustomResourceDefinition crd = api.readCustomResourceDefinition(name).execute();
        if (isEstablished(crd)) {
          return crd;
        }
      } catch (ApiException e) {
        throw new IllegalStateException("cannot read CRD " + name + ": " + e.getResponseBody(), e);
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "CRD " + name + " not Established within " + ESTABLISH_TIMEOUT.toSeconds() + " s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for CRD " + name, e);
      }
    }
  }

  public static boolean isEstablished(V1CustomResourceDefinition crd) {
    List<V1CustomResourceDefinitionCondition> conditions =
        crd.getStatus() == null ? null : crd.getStatus().getConditions();
    return conditions != null
        && conditions.stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
