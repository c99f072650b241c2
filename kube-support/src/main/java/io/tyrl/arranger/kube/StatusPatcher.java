package io.tyrl.arranger.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON merge patches on the {@code /status} subresource of Arranger's custom resources. The patch
 * goes through {@link PatchUtils}, which sends {@code application/merge-patch+json}: the generated
 * patch calls of client-java 24 send {@code application/json}, which the API server answers with 415.
 *
 * <p>Transport failures, 429 and 5xx are retried with backoff. On 409 the object is read again and
 * the patch derived anew from it. Other refusals (400, 403, 415, 422...) are not retried: they are
 * thrown with the API server's message. A deleted object is not an error: the result is empty.
 */
public final class StatusPatcher {

  private static final Logger log = LoggerFactory.getLogger(StatusPatcher.class);

  private final ApiClient client;
  private final CustomObjectsApi api;
  private final Backoff backoff;

  public StatusPatcher(ApiClient client, Backoff backoff) {
    this.client = client;
    this.api = new CustomObjectsApi(client);
    this.backoff = backoff;
  }

  /** A namespaced custom resource. */
  public record Target(String group, String version, String plural, String namespace, String name) {
    @Override
    public String toString() {
      return plural + "." + group + " " + namespace + "/" + name;
    }
  }

  /**
   * Patches the target's status. {@code patchFor} gets the object as last read (empty before the
   * first conflict) and returns the merge patch, e.g. {@code {"status":{"stage":"Running"}}}.
   *
   * @return the patched object, or empty when the object no longer exists
   */
  public Optional<JsonObject> patch(Target target, Function<Optional<JsonObject>, String> patchFor) {
    Optional<JsonObject> current = Optional.empty();
    for (int attempt = 1; ; attempt++) {
      String patch = patchFor.apply(current);
      try {
        return Optional.of(send(target, patch));
      } catch (ApiException e) {
        int code = e.getCode();
        if (code == 404) {
          return Optional.empty();
        }
        if (!retryable(code)) {
          throw new StatusPatchException("status patch on " + target + " refused with HTTP " + code + ": "
              + e.getResponseBody(), code, e);
        }
        if (attempt >= backoff.maxAttempts()) {
          throw new StatusPatchException("status patch on " + target + " failed " + attempt + " times; last: "
              + describe(e), code, e);
        }
        log.debug("status patch on {} failed ({}), retry {}", target, describe(e), attempt);
        pause(attempt, target);
        if (code == 409) {
          current = read(target);
          if (current.isEmpty()) {
            return Optional.empty();
          }
        }
      }
    }
  }

  private JsonObject send(Target target, String patch) throws ApiException {
    return PatchUtils.patch(JsonObject.class,
        () -> api.patchNamespacedCustomObjectStatus(target.group(), target.version(), target.namespace(),
            target.plural(), target.name(), new V1Patch(patch)).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
  }

  private Optional<JsonObject> read(Target target) {
    for (int attempt = 1; ; attempt++) {
      try {
        Object object = api.getNamespacedCustomObject(target.group(), target.version(), target.namespace(),
            target.plural(), target.name()).execute();
        return Optional.of(client.getJSON().getGson().toJsonTree(object).getAsJsonObject());
      } catch (ApiException e) {
        if (e.getCode() == 404) {
          return Optional.empty();
        }
        if (!retryable(e.getCode()) || attempt >= backoff.maxAttempts()) {
          throw new StatusPatchException("cannot re-read " + target + " after a conflict: " + describe(e), e.getCode(), e);
        }
        pause(attempt, target);
      }
    }
  }

  private void pause(int attempt, Target target) {
    try {
      backoff.pause(attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StatusPatchException("interrupted while patching " + target, 0, e);
    }
  }

  /** 0 means no HTTP answer at all (connection refused, timeout). */
  static boolean retryable(int code) {
    return code == 0 || code == 409 || code == 429 || code >= 500;
  }

  private static String describe(ApiException e) {
    return e.getCode() == 0 ? String.valueOf(e.getCause() == null ? e.getMessage() : e.getCause())
        : "HTTP " + e.getCode() + " " + e.getResponseBody();
  }
}
