package io.tyrl.arranger.testing.chart;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.CreateOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Kubernetes manifests as JSON objects: parsed from multi-document YAML, and sent to the API
 * server.
 */
final class Manifests {

  private static final Gson GSON = new Gson();

  private Manifests() {}

  /** Every non-empty document of a multi-document YAML text, in order. */
  static List<JsonObject> parse(String yaml) {
    List<JsonObject> documents = new ArrayList<>();
    for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
      if (document != null) {
        documents.add(GSON.toJsonTree(document).getAsJsonObject());
      }
    }
    return documents;
  }

  static String kind(JsonObject object) {
    return object.get("kind").getAsString();
  }

  static String apiVersion(JsonObject object) {
    return object.get("apiVersion").getAsString();
  }

  static String name(JsonObject object) {
    return object.getAsJsonObject("metadata").get("name").getAsString();
  }

  static String describe(JsonObject object) {
    return kind(object) + " " + name(object);
  }

  static List<JsonObject> ofKind(List<JsonObject> objects, String kind) {
    return objects.stream().filter(object -> kind(object).equals(kind)).toList();
  }

  static JsonObject single(List<JsonObject> objects, String kind, String name) {
    List<JsonObject> matches =
        objects.stream()
            .filter(object -> kind(object).equals(kind) && name(object).equals(name))
            .toList();
    if (matches.size() != 1) {
      throw new AssertionError("expected one " + kind + " " + name + ", found " + matches.size());
    }
    return matches.get(0);
  }

  /**
   * Follows a path of object keys and array indexes, e.g. ("spec", "template", "spec",
   * "containers", 0).
   */
  static JsonElement at(JsonElement root, Object... path) {
    JsonElement current = root;
    for (Object step : path) {
      if (current == null || current.isJsonNull()) {
        return null;
      }
      current =
          step instanceof Integer index
              ? (index < current.getAsJsonArray().size()
                  ? current.getAsJsonArray().get(index)
                  : null)
              : current.getAsJsonObject().get((String) step);
    }
    return current;
  }

  static String string(JsonElement root, Object... path) {
    JsonElement value = at(root, path);
    return value == null || value.isJsonNull() ? null : value.getAsString();
  }

  /**
   * Where {@code expected} is not contained in {@code actual} (every key of an object and every
   * element of an array, recursively; numbers by value), or empty when it is.
   */
  static Optional<String> firstDifference(JsonElement expected, JsonElement actual, String path) {
    if (expected.isJsonObject()) {
      if (actual == null || !actual.isJsonObject()) {
        return Optional.of(path + ": expected an object, got " + actual);
      }
      for (Map.Entry<String, JsonElement> entry : expected.getAsJsonObject().entrySet()) {
        Optional<String> difference =
            firstDifference(
                entry.getValue(),
                actual.getAsJsonObject().get(entry.getKey()),
                path + "." + entry.getKey());
        if (difference.isPresent()) {
          return difference;
        }
      }
      return Optional.empty();
    }
    if (expected.isJsonArray()) {
      JsonArray want = expected.getAsJsonArray();
      if (actual == null
          || !actual.isJsonArray()
          || actual.getAsJsonArray().size() != want.size()) {
        return Optional.of(path + ": expected " + want.size() + " elements, got " + actual);
      }
      for (int i = 0; i < want.size(); i++) {
        Optional<String> difference =
            firstDifference(want.get(i), actual.getAsJsonArray().get(i), path + "[" + i + "]");
        if (difference.isPresent()) {
          return difference;
        }
      }
      return Optional.empty();
    }
    if (expected.isJsonPrimitive() && expected.getAsJsonPrimitive().isNumber()) {
      boolean same =
          actual != null
              && actual.isJsonPrimitive()
              && actual.getAsJsonPrimitive().isNumber()
              && actual.getAsBigDecimal().compareTo(expected.getAsBigDecimal()) == 0;
      return same
          ? Optional.empty()
          : Optional.of(path + ": expected " + expected + ", got " + actual);
    }
    return expected.equals(actual)
        ? Optional.empty()
        : Optional.of(path + ": expected " + expected + ", got " + actual);
  }

  /** The API server's resources by "group/version/kind", from discovery. */
  static final class Resources {

    private final ApiClient client;
    private final Map<String, Discovery.APIResource> byGroupVersionKind = new HashMap<>();

    Resources(ApiClient client) {
      this.client = client;
      try {
        for (Discovery.APIResource resource : new Discovery(client).findAll()) {
          for (String version : resource.getVersions()) {
            byGroupVersionKind.put(
                resource.getGroup() + "/" + version + "/" + resource.getKind(), resource);
          }
        }
      } catch (ApiException e) {
        throw new IllegalStateException(
            "discovery failed: HTTP " + e.getCode() + " " + e.getResponseBody(), e);
      }
    }

    /** The resource that serves the object's apiVersion and kind, if this API server has one. */
    Optional<Discovery.APIResource> of(JsonObject object) {
      String apiVersion = apiVersion(object);
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
      return Optional.ofNullable(
          byGroupVersionKind.get(group + "/" + version + "/" + kind(object)));
    }

    /** A dynamic client for the object's resource; fails when the API server does not serve it. */
    DynamicKubernetesApi api(JsonObject object) {
      Discovery.APIResource resource =
          of(object)
              .orElseThrow(
                  () ->
                      new AssertionError(
                          "the API server serves no " + apiVersion(object) + " " + kind(object)));
      String apiVersion = apiVersion(object);
      String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
      return new DynamicKubernetesApi(
          resource.getGroup(), version, resource.getResourcePlural(), client);
    }

    /**
     * Creates the object with {@code dryRun=All}. Cluster-scoped objects go through {@link
     * CustomObjectsApi}: client-java 24's GenericKubernetesApi drops dryRun from cluster-scoped
     * creates (its request builder sets dryRun a second time, from the field manager), and would
     * store the object for real.
     */
    void dryRunCreate(JsonObject object) {
      String what = "dry-run create of " + describe(object);
      if (namespaced(object)) {
        requireSuccess(
            api(object)
                .create(new DynamicKubernetesObject(object), new CreateOptions().dryRun("All")),
            what);
        return;
      }
      Discovery.APIResource resource = of(object).orElseThrow();
      if (resource.getGroup().isEmpty()) {
        throw new AssertionError(what + ": cluster-scoped core kinds are not sent by this helper");
      }
      String apiVersion = apiVersion(object);
      try {
        new CustomObjectsApi(client)
            .createClusterCustomObject(
                resource.getGroup(),
                apiVersion.substring(apiVersion.indexOf('/') + 1),
                resource.getResourcePlural(),
                object)
            .dryRun("All")
            .execute();
      } catch (ApiException e) {
        throw new AssertionError(
            what + " was refused (HTTP " + e.getCode() + "): " + e.getResponseBody(), e);
      }
    }

    boolean namespaced(JsonObject object) {
      return of(object).map(Discovery.APIResource::getNamespaced).orElse(false);
    }
  }

  /** Creates a namespace with a unique name for one test's objects. */
  static String createNamespace(ApiClient client, String prefix) throws ApiException {
    String namespace = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    new CoreV1Api(client)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
        .execute();
    return namespace;
  }

  /** Fails with the API server's message unless the response is a success. */
  static DynamicKubernetesObject requireSuccess(
      KubernetesApiResponse<DynamicKubernetesObject> response, String what) {
    if (!response.isSuccess()) {
      throw new AssertionError(
          what
              + " was refused (HTTP "
              + response.getHttpStatusCode()
              + "): "
              + (response.getStatus() == null ? "no status" : response.getStatus().getMessage()));
    }
    return response.getObject();
  }
}
