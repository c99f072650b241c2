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
import io.tyrl.arranger.testing.MalformedTYJob;
import io.tyrl.arranger.testing.MalformedTYJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Submits malformed TYJobs (the corpus {@code testing/src/main/resources/malformed-tyjobs/}, or a
 * folder in its format, loaded by {@link MalformedTYJobs}) and tells which were <b>handled</b>:
 * refused by the API server (HTTP 4xx), or accepted and then marked by Arranger — stage Failed, a
 * condition with status False, or a scheduling reason {@code InvalidJob} — in either case with a
 * message that names the job's field ({@link MalformedTYJob#isNamedIn}). Either outcome counts,
 * whatever the case expects.
 */
public final class MalformedCorpus {

  /** One malformed object and what became of it. */
  public record Case(MalformedTYJob job, boolean refused, String answer) {

    public String file() {
      return job.file();
    }

    public String name() {
      return job.name();
    }
  }

  private MalformedCorpus() {}

  /** Submits every job into the namespace (the objects' own namespace is replaced). */
  public static List<Case> submit(ApiClient client, List<MalformedTYJob> jobs, String namespace) {
    List<Case> cases = new ArrayList<>();
    for (MalformedTYJob job : jobs) {
      Map<String, Object> object = new LinkedHashMap<>(job.body());
      Map<String, Object> metadata =
          object.get("metadata") instanceof Map<?, ?> m
              ? new LinkedHashMap<>(castMap(m))
              : new LinkedHashMap<>();
      metadata.put("namespace", namespace);
      object.put("metadata", metadata);
      try {
        new CustomObjectsApi(client)
            .createNamespacedCustomObject(
                ArrangerResources.GROUP,
                ArrangerResources.VERSION,
                namespace,
                ArrangerResources.TYJOBS,
                object)
            .execute();
        cases.add(new Case(job, false, ""));
      } catch (ApiException e) {
        if (e.getCode() < 400 || e.getCode() >= 500) {
          throw new IllegalStateException(
              "submitting "
                  + job.file()
                  + " failed (HTTP "
                  + e.getCode()
                  + "): "
                  + e.getResponseBody(),
              e);
        }
        cases.add(new Case(job, true, String.valueOf(e.getResponseBody())));
      }
    }
    return cases;
  }

  /** Waits up to the timeout for every accepted case to be marked; returns the cases handled. */
  public static List<Case> handled(
      ApiClient client, String namespace, List<Case> cases, Duration timeout) {
    DynamicKubernetesApi api =
        new DynamicKubernetesApi(
            ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.TYJOBS, client);
    List<Case> handled = new ArrayList<>();
    Poll.until(
        () -> {
          handled.clear();
          for (Case c : cases) {
            if (c.refused()) {
              if (c.job().isNamedIn(c.answer())) {
                handled.add(c);
              }
              continue;
            }
            KubernetesApiResponse<DynamicKubernetesObject> read = api.get(namespace, c.name());
            if (read.isSuccess() && markedInvalid(read.getObject().getRaw(), c.job())) {
              handled.add(c);
            }
          }
          return handled.size() == cases.size();
        },
        timeout,
        Duration.ofSeconds(2));
    return List.copyOf(handled);
  }

  /** Whether Arranger marked the job as invalid with a message naming the expected job's field. */
  static boolean markedInvalid(JsonObject job, MalformedTYJob expected) {
    JsonObject status =
        job.has("status") && job.get("status").isJsonObject()
            ? job.getAsJsonObject("status")
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
    return messages.stream().anyMatch(expected::isNamedIn);
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
