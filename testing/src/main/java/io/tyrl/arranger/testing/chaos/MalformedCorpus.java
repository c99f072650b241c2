package io.tyrl.arranger.testing.chaos;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/**
 * Submits a folder of malformed TYJobs (one per {@code .yaml}, {@code .yml} or {@code .json} file,
 * as in the corpus {@code testing/src/main/resources/malformed-tyjobs/}) and tells which were
 * <b>handled</b>: refused by the API server (HTTP 4xx), or accepted and then marked by Arranger —
 * stage Failed, a condition with status False, or a scheduling reason {@code InvalidJob} — in
 * either case with a message that names the offending field. The field is the object's annotation
 * {@value #FIELD_ANNOTATION} (a JSON path with indices, {@code spec.workerSets[0].counts}; the form
 * without indices, in which kube-apiserver 1.20 names fields of list items, counts too); without the
 * annotation any non-empty message counts. Either outcome counts, whatever the case expects.
 */
public final class MalformedCorpus {

  public static final String FIELD_ANNOTATION = "corpus.arranger.tyrl.io/field";
  private static final Pattern INDEX = Pattern.compile("\\[[^\\]]*\\]");

  /** One malformed object and what became of it. */
  public record Case(String file, String name, String expectedField, boolean refused, String answer) {}

  private MalformedCorpus() {}

  /** Submits every file of the folder into the namespace (the objects' own namespace is replaced). */
  public static List<Case> submit(ApiClient client, Path folder, String namespace) {
    List<Case> cases = new ArrayList<>();
    for (Path file : files(folder)) {
      Object document;
      try {
        document = new Yaml().load(Files.readString(file));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
      if (!(document instanceof Map<?, ?> map)) {
        throw new IllegalArgumentException(file + " holds no object");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> object = new LinkedHashMap<>((Map<String, Object>) map);
      Map<String, Object> metadata = object.get("metadata") instanceof Map<?, ?> m
          ? new LinkedHashMap<>(castMap(m)) : new LinkedHashMap<>();
      metadata.put("namespace", namespace);
      object.put("metadata", metadata);
      String name = String.valueOf(metadata.get("name"));
      String field = metadata.get("annotations") instanceof Map<?, ?> annotations
          && annotations.get(FIELD_ANNOTATION) != null ? String.valueOf(annotations.get(FIELD_ANNOTATION)) : null;
      try {
        new CustomObjectsApi(client).createNamespacedCustomObject(ArrangerResources.GROUP, ArrangerResources.VERSION,
            namespace, ArrangerResources.TYJOBS, object).execute();
        cases.add(new Case(file.getFileName().toString(), name, field, false, ""));
      } catch (ApiException e) {
        if (e.getCode() < 400 || e.getCode() >= 500) {
          throw new IllegalStateException("submitting " + file + " failed (HTTP " + e.getCode() + "): "
              + e.getResponseBody(), e);
        }
        cases.add(new Case(file.getFileName().toString(), name, field, true, String.valueOf(e.getResponseBody())));
      }
    }
    return cases;
  }

  /** Waits up to the timeout for every accepted case to be marked; returns the cases handled. */
  public static List<Case> handled(ApiClient client, String namespace, List<Case> cases, Duration timeout) {
    DynamicKubernetesApi api = new DynamicKubernetesApi(ArrangerResources.GROUP, ArrangerResources.VERSION,
        ArrangerResources.TYJOBS, client);
    List<Case> handled = new ArrayList<>();
    Poll.until(() -> {
      handled.clear();
      for (Case c : cases) {
        if (c.refused()) {
          if (namesField(c.answer(), c.expectedField())) {
            handled.add(c);
          }
          continue;
        }
        KubernetesApiResponse<DynamicKubernetesObject> read = api.get(namespace, c.name());
        if (read.isSuccess() && markedInvalid(read.getObject().getRaw(), c.expectedField())) {
          handled.add(c);
        }
      }
      return handled.size() == cases.size();
    }, timeout, Duration.ofSeconds(2));
    return List.copyOf(handled);
  }

  /** Whether Arranger marked the job as invalid with a message naming the field (when one is expected). */
  static boolean markedInvalid(JsonObject job, String expectedField) {
    JsonObject status = job.has("status") && job.get("status").isJsonObject() ? job.getAsJsonObject("status")
        : new JsonObject();
    List<String> messages = new ArrayList<>();
    boolean failed = "Failed".equals(string(status, "stage"));
    if (status.has("conditions") && status.get("conditions").isJsonArray()) {
      for (JsonElement condition : status.getAsJsonArray("conditions")) {
        if (condition.isJsonObject()) {
          JsonObject c = condition.getAsJsonObject();
          if ("False".equals(string(c, "status")) && !string(c, "message").isEmpty()) {
            failed |= "Validated".equals(string(c, "type"));
            messages.add(string(c, "message"));
          }
        }
      }
    }
    if (status.has("scheduling") && status.get("scheduling").isJsonObject()) {
      JsonObject scheduling = status.getAsJsonObject("scheduling");
      if ("InvalidJob".equals(string(scheduling, "reason"))) {
        failed = true;
        messages.add(string(scheduling, "message"));
      }
    }
    if (!failed) {
      return false;
    }
    return messages.stream().anyMatch(m -> namesField(m, expectedField));
  }

  /** Whether the message names the field, as written or without indices; any message when no field is expected. */
  static boolean namesField(String message, String field) {
    if (message == null || message.isBlank()) {
      return false;
    }
    return field == null || message.contains(field) || message.contains(INDEX.matcher(field).replaceAll(""));
  }

  private static List<Path> files(Path folder) {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + folder, e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  private static String string(JsonObject parent, String field) {
    JsonElement value = parent.get(field);
    return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
  }
}
