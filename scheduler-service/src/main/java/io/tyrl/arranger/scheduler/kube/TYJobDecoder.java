package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns one TYJob as stored (raw JSON from the informer) into the typed model, one object at a
 * time: a job the model refuses — a template without containers, a quantity such as {@code "abc"}
 * — becomes an undecodable job with a message naming the field, and never stops the informer or
 * the other jobs.
 */
final class TYJobDecoder {

  /** Longer reasons are cut: they end up in a status message and an Event. */
  private static final int MAX_PROBLEM_LENGTH = 300;

  /**
   * A TYJob as the scheduler sees it.
   *
   * @param job the typed job; when undecodable, only its metadata and (if readable) status, with no spec
   * @param problem why the spec could not be read, naming the field; empty when it could
   */
  record Decoded(V1alpha1TYJob job, Optional<String> problem) {
    String key() {
      return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }
  }

  private final Gson gson;

  TYJobDecoder(Gson gson) {
    this.gson = gson;
  }

  Decoded decode(JsonObject raw) {
    try {
      return new Decoded(gson.fromJson(raw, V1alpha1TYJob.class), Optional.empty());
    } catch (RuntimeException whole) {
      V1alpha1TYJob shell = new V1alpha1TYJob()
          .apiVersion(string(raw, "apiVersion"))
          .kind(string(raw, "kind"))
          .metadata(gson.fromJson(raw.get("metadata"), V1ObjectMeta.class))
          .status(readableStatus(raw.get("status")))
          .spec(null);
      return new Decoded(shell, Optional.of(cut(locate(raw).orElseGet(() -> "spec: " + describe(whole)))));
    }
  }

  private V1alpha1TYJobStatus readableStatus(JsonElement status) {
    if (status == null || !status.isJsonObject()) {
      return null;
    }
    try {
      return gson.fromJson(status, V1alpha1TYJobStatus.class);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The first part of the spec the model refuses, by its path, with the model's complaint. */
  private Optional<String> locate(JsonObject raw) {
    JsonObject spec = object(raw, "spec");
    if (spec == null) {
      return Optional.of("spec: missing or not an object");
    }
    List<Part> parts = new ArrayList<>();
    JsonObject leader = object(spec, "leader");
    if (leader != null) {
      parts.addAll(templateParts(leader.get("template"), "spec.leader.template"));
    }
    JsonElement workerSets = spec.get("workerSets");
    if (workerSets != null && workerSets.isJsonArray()) {
      for (int i = 0; i < workerSets.getAsJsonArray().size(); i++) {
        JsonElement set = workerSets.getAsJsonArray().get(i);
        if (set.isJsonObject()) {
          parts.addAll(templateParts(set.getAsJsonObject().get("template"), "spec.workerSets[" + i + "].template"));
        }
      }
    }
    JsonElement volumes = spec.get("volumes");
    if (volumes != null && volumes.isJsonArray()) {
      for (int i = 0; i < volumes.getAsJsonArray().size(); i++) {
        parts.add(new Part("spec.volumes[" + i + "]", volumes.getAsJsonArray().get(i), V1Volume.class));
      }
    }
    for (Part part : parts) {
      Optional<String> problem = refusal(part);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  /** Containers first, so that a bad quantity is named down to its container, then the template as a whole. */
  private static List<Part> templateParts(JsonElement template, String path) {
    List<Part> parts = new ArrayList<>();
    if (template != null && template.isJsonObject()) {
      JsonObject podSpec = object(template.getAsJsonObject(), "spec");
      for (String list : List.of("initContainers", "containers")) {
        JsonElement containers = podSpec == null ? null : podSpec.get(list);
        if (containers != null && containers.isJsonArray()) {
          for (int i = 0; i < containers.getAsJsonArray().size(); i++) {
            parts.add(new Part(path + ".spec." + list + "[" + i + "]", containers.getAsJsonArray().get(i),
                V1Container.class));
          }
        }
      }
    }
    parts.add(new Part(path, template, V1PodTemplateSpec.class));
    return parts;
  }

  private Optional<String> refusal(Part part) {
    if (part.json() == null) {
      return Optional.of(part.path() + ": missing");
    }
    try {
      gson.fromJson(part.json(), part.type());
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(part.path() + ": " + describe(e));
    }
  }

  private record Part(String path, JsonElement json, Class<?> type) {}

  /** The model's complaint without the JSON it quotes back. */
  static String describe(RuntimeException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    int quoted = message.indexOf(" in the JSON string");
    return (quoted > 0 ? message.substring(0, quoted) : message).replace('`', '"');
  }

  private static String cut(String problem) {
    return problem.length() <= MAX_PROBLEM_LENGTH ? problem : problem.substring(0, MAX_PROBLEM_LENGTH - 3) + "...";
  }

  static JsonObject object(JsonObject parent, String member) {
    JsonElement element = parent.get(member);
    return element != null && element.isJsonObject() ? element.getAsJsonObject() : null;
  }

  static String string(JsonObject parent, String member) {
    JsonElement element = parent.get(member);
    return element != null && element.isJsonPrimitive() ? element.getAsString() : null;
  }
}
