package io.tyrl.arranger.testing;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/**
 * Creates the Queues and TYJobs of a folder of YAML files (several documents per file allowed),
 * Queues first.
 */
public final class SampleApplier {

  private SampleApplier() {}

  /**
   * @return "kind namespace/name" of every object created
   */
  public static List<String> apply(ApiClient client, Path folder, String defaultNamespace) {
    List<JsonObject> objects = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file :
          files
              .filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
              .sorted()
              .toList()) {
        try (Reader reader = Files.newBufferedReader(file)) {
          for (Object document : new Yaml().loadAll(reader)) {
            if (document instanceof Map<?, ?> map && !map.isEmpty()) {
              objects.add(new Gson().toJsonTree(map).getAsJsonObject());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read samples in " + folder, e);
    }
    objects.sort((a, b) -> Boolean.compare(!isQueue(a), !isQueue(b)));
    List<String> created = new ArrayList<>();
    for (JsonObject object : objects) {
      created.add(create(client, object, defaultNamespace));
    }
    return created;
  }

  private static boolean isQueue(JsonObject object) {
    return ArrangerResources.QUEUE_KIND.equals(object.get("kind").getAsString());
  }

  private static String create(ApiClient client, JsonObject object, String defaultNamespace) {
    String kind = object.get("kind").getAsString();
    String name = object.getAsJsonObject("metadata").get("name").getAsString();
    KubernetesApiResponse<DynamicKubernetesObject> response;
    String namespace = "";
    if (isQueue(object)) {
      response =
          new DynamicKubernetesApi(
                  ArrangerResources.GROUP,
                  ArrangerResources.VERSION,
                  ArrangerResources.QUEUES,
                  client)
              .create(new DynamicKubernetesObject(object));
    } else if (ArrangerResources.TYJOB_KIND.equals(kind)) {
      JsonObject metadata = object.getAsJsonObject("metadata");
      if (!metadata.has("namespace")) {
        metadata.addProperty("namespace", defaultNamespace);
      }
      namespace = metadata.get("namespace").getAsString();
      response =
          new DynamicKubernetesApi(
                  ArrangerResources.GROUP,
                  ArrangerResources.VERSION,
                  ArrangerResources.TYJOBS,
                  client)
              .create(new DynamicKubernetesObject(object));
    } else {
      throw new IllegalArgumentException(
          "sample " + name + " is a " + kind + "; only Queue and TYJob samples are applied");
    }
    if (!response.isSuccess() && response.getHttpStatusCode() != 409) {
      throw new IllegalStateException(
          "cannot create " + kind + " " + name + ": " + response.getStatus().getMessage());
    }
    return kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
  }
}
