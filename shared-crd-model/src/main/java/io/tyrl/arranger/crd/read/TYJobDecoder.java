package io.tyrl.arranger.crd.read;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns one TYJob as stored (raw JSON from an informer) into the typed model, one object at a time:
 * a job whose spec the model cannot hold — a count beyond int32, {@code "three"} for a number, a
 * template without containers, a quantity such as {@code "abc"}, a field pods do not have — becomes
 * an undecodable job with a message naming the field by its path, and never stops the informer or
 * the other jobs. Both services read TYJobs through it, so a job is refused for the same reason,
 * worded the same, by both. The few raw reads done before decoding (a name, a version, the stage)
 * go through {@link #object} and {@link #string}.
 */
public final class TYJobDecoder {

  /** Longer reasons are cut: they end up in a status message and an Event. */
  private static final int MAX_PROBLEM_LENGTH = 300;

  /**
   * A TYJob as read.
   *
   * @param job the typed job; when undecodable, only its metadata and (if readable) status, with no
   *     spec
   * @param problem why the spec could not be read, naming the field; empty when it could
   */
  public record Decoded(V1alpha1TYJob job, Optional<String> problem) {
    public String key() {
      return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }
  }

  /**
   * What the model refuses in a part of a job.
   *
   * @param path the refused field, relative to the part read (empty for the part as a whole)
   * @param complaint the model's complaint, without the JSON it quotes back
   */
  public record Refusal(String path, String complaint) {

    /** The same refusal, its path prefixed by the part's own path in the job. */
    public Refusal under(String parent) {
      return new Refusal(path.isEmpty() ? parent : parent + "." + path, complaint);
    }

    /** {@code path: complaint}, or the complaint alone for the part as a whole. */
    @Override
    public String toString() {
      return path.isEmpty() ? complaint : path + ": " + complaint;
    }
  }

  /**
   * A pod template as read: the typed template when the model takes it, else what it refuses.
   * Exactly one of the two is present.
   */
  public record Template(Optional<V1PodTemplateSpec> template, Optional<Refusal> refusal) {}

  /**
   * {@code spec.volumes} as read: the typed volumes, or the first entry the model refuses (and no
   * volumes).
   */
  public record Volumes(List<V1Volume> volumes, Optional<Refusal> refusal) {}

  private final Gson gson;

  public TYJobDecoder(Gson gson) {
    this.gson = gson;
  }

  /**
   * A TYJob as read, with the refusal structured.
   *
   * @param job as for {@link Decoded#job()}
   * @param refusal the first value of the spec the model cannot hold, by its path in the job; empty
   *     when it can
   */
  public record Reading(V1alpha1TYJob job, Optional<Refusal> refusal) {}

  public Decoded decode(JsonObject raw) {
    Reading reading = read(raw);
    return new Decoded(reading.job(), reading.refusal().map(refusal -> cut(refusal.toString())));
  }

  /**
   * The job's identity and status, and its spec when the model holds every value of it as stored.
   * The spec is checked against the model's types before Gson reads it, because Gson would read
   * some values that do not fit as others (an integer beyond int32 wrapped, {@code "3"} as 3). The
   * status, written by the services themselves, is read without the values that do not fit.
   */
  public Reading read(JsonObject raw) {
    V1alpha1TYJob job =
        new V1alpha1TYJob()
            .apiVersion(string(raw, "apiVersion"))
            .kind(string(raw, "kind"))
            .metadata(gson.fromJson(raw.get("metadata"), V1ObjectMeta.class))
            .status(status(raw.get("status")));
    JsonElement spec = raw.get("spec");
    if (spec == null || !spec.isJsonObject()) {
      return new Reading(job, Optional.of(new Refusal("spec", "missing or not an object")));
    }
    Optional<Refusal> misfit = ModelFit.misfit(spec, V1alpha1TYJobSpec.class, "spec");
    if (misfit.isPresent()) {
      return new Reading(job, misfit);
    }
    try {
      return new Reading(job.spec(gson.fromJson(spec, V1alpha1TYJobSpec.class)), Optional.empty());
    } catch (RuntimeException whole) {
      return new Reading(
          job,
          Optional.of(
              locate(spec.getAsJsonObject())
                  .orElseGet(() -> new Refusal("spec", describe(whole)))));
    }
  }

  /**
   * One pod template. Values that do not fit the model are named first, down to their field; then
   * its containers are tried, so that a bad quantity is named down to its resource ({@code
   * spec.containers[1].resources.requests[cpu]}), then the template as a whole.
   */
  public Template template(JsonElement template) {
    if (template == null) {
      return new Template(Optional.empty(), Optional.of(new Refusal("", "missing")));
    }
    Optional<Refusal> misfit = ModelFit.misfit(template, V1PodTemplateSpec.class, "");
    if (misfit.isPresent()) {
      return new Template(Optional.empty(), misfit);
    }
    try {
      return new Template(
          Optional.ofNullable(gson.fromJson(template, V1PodTemplateSpec.class)), Optional.empty());
    } catch (RuntimeException whole) {
      Refusal refusal =
          containersRefusal(template).orElseGet(() -> new Refusal("", describe(whole)));
      return new Template(Optional.empty(), Optional.of(refusal));
    }
  }

  /** {@code spec.volumes}: absent or not a list reads as none. */
  public Volumes volumes(JsonElement volumes) {
    if (volumes == null || !volumes.isJsonArray()) {
      return new Volumes(List.of(), Optional.empty());
    }
    List<V1Volume> decoded = new ArrayList<>();
    for (int i = 0; i < volumes.getAsJsonArray().size(); i++) {
      try {
        decoded.add(gson.fromJson(volumes.getAsJsonArray().get(i), V1Volume.class));
      } catch (RuntimeException e) {
        return new Volumes(
            List.of(), Optional.of(new Refusal("spec.volumes[" + i + "]", describe(e))));
      }
    }
    return new Volumes(decoded, Optional.empty());
  }

  /**
   * A TYJob's {@code status} as stored, without the values the model cannot hold; null when absent
   * or not an object.
   */
  public V1alpha1TYJobStatus status(JsonElement status) {
    if (status == null || !status.isJsonObject()) {
      return null;
    }
    try {
      return ModelFit.fitting(status, V1alpha1TYJobStatus.class)
          .map(fitting -> gson.fromJson(fitting, V1alpha1TYJobStatus.class))
          .orElse(null);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The first part of the spec the model refuses, by its path, with the model's complaint. */
  private Optional<Refusal> locate(JsonObject spec) {
    JsonObject leader = object(spec, "leader");
    if (leader != null) {
      Optional<Refusal> refusal =
          template(leader.get("template")).refusal().map(r -> r.under("spec.leader.template"));
      if (refusal.isPresent()) {
        return refusal;
      }
    }
    JsonElement workerSets = spec.get("workerSets");
    if (workerSets != null && workerSets.isJsonArray()) {
      for (int i = 0; i < workerSets.getAsJsonArray().size(); i++) {
        JsonElement set = workerSets.getAsJsonArray().get(i);
        if (set.isJsonObject()) {
          String path = "spec.workerSets[" + i + "].template";
          Optional<Refusal> refusal =
              template(set.getAsJsonObject().get("template")).refusal().map(r -> r.under(path));
          if (refusal.isPresent()) {
            return refusal;
          }
        }
      }
    }
    return volumes(spec.get("volumes")).refusal();
  }

  private Optional<Refusal> containersRefusal(JsonElement template) {
    JsonObject podSpec =
        template.isJsonObject() ? object(template.getAsJsonObject(), "spec") : null;
    for (String list : List.of("initContainers", "containers")) {
      JsonElement containers = podSpec == null ? null : podSpec.get(list);
      if (containers != null && containers.isJsonArray()) {
        for (int i = 0; i < containers.getAsJsonArray().size(); i++) {
          JsonElement container = containers.getAsJsonArray().get(i);
          String path = "spec." + list + "[" + i + "]";
          try {
            gson.fromJson(container, V1Container.class);
          } catch (RuntimeException e) {
            return Optional.of(
                quantityRefusal(container)
                    .map(refusal -> refusal.under(path))
                    .orElseGet(() -> new Refusal(path, describe(e))));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** A quantity of a container's resources that is none, named down to its resource. */
  private static Optional<Refusal> quantityRefusal(JsonElement container) {
    JsonObject resources =
        container.isJsonObject() ? object(container.getAsJsonObject(), "resources") : null;
    for (String kind : List.of("requests", "limits")) {
      JsonObject quantities = resources == null ? null : object(resources, kind);
      if (quantities != null) {
        for (Map.Entry<String, JsonElement> entry : quantities.entrySet()) {
          if (!isQuantity(entry.getValue())) {
            return Optional.of(
                new Refusal(
                    "resources." + kind + "[" + entry.getKey() + "]",
                    ModelFit.shown(entry.getValue())
                        + " is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)"));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isQuantity(JsonElement value) {
    if (value.isJsonNull()) {
      return true;
    }
    if (!value.isJsonPrimitive() || value.getAsJsonPrimitive().isBoolean()) {
      return false;
    }
    try {
      Quantity.fromString(value.getAsString());
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * The model's complaint without the JSON it quotes back, e.g. {@code The field "imagee" is not
   * defined in the "V1Container" properties.}
   */
  public static String describe(RuntimeException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    int json = message.indexOf(" JSON:");
    if (json > 0) {
      message = message.substring(0, json);
    }
    int quoted = message.indexOf(" in the JSON string");
    if (quoted > 0) {
      String after = message.substring(quoted + " in the JSON string".length());
      message = message.substring(0, quoted) + (after.startsWith(":") ? "" : after);
    }
    return message.replace('`', '"');
  }

  private static String cut(String problem) {
    return problem.length() <= MAX_PROBLEM_LENGTH
        ? problem
        : problem.substring(0, MAX_PROBLEM_LENGTH - 3) + "...";
  }

  /** The member of a raw object that is an object, or null. */
  public static JsonObject object(JsonObject parent, String member) {
    JsonElement element = parent.get(member);
    return element != null && element.isJsonObject() ? element.getAsJsonObject() : null;
  }

  /** The member of a raw object that is a scalar, as text, or null. */
  public static String string(JsonObject parent, String member) {
    JsonElement element = parent.get(member);
    return element != null && element.isJsonPrimitive() ? element.getAsString() : null;
  }
}
