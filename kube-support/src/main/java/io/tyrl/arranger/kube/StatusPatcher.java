package io.tyrl.arranger.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON merge patches on the {@code /status} subresource of Arranger's custom resources. The patch
 * goes through {@link PatchUtils}, which sends {@code application/merge-patch+json}: the generated
 * patch calls of client-java 24 send {@code application/json}, which the API server answers with
 * 415.
 *
 * <p>Every attempt first asks the {@link LeadershipFence}: a replica that may have lost its lease
 * sends nothing. Transport failures, 429 and 5xx are retried with backoff, for at most the retry
 * budget in all (kept below the lease duration, so that a write never outlives the leadership it
 * was made under). A 409 is not retried: the patch carries the {@code resourceVersion} it was made
 * from, so a conflict means it was made on stale state, and the caller decides afresh from the
 * cache rather than re-deriving the same write. Other refusals (400, 403, 415, 422...) are thrown
 * with the API server's message.
 */
public final class StatusPatcher {

  private static final Logger log = LoggerFactory.getLogger(StatusPatcher.class);

  /** What became of a patch. */
  public sealed interface Result {
    /** Applied; the object as the API server now holds it. */
    record Patched(JsonObject object) implements Result {
      public String resourceVersion() {
        JsonObject metadata = object.getAsJsonObject("metadata");
        return metadata == null || metadata.get("resourceVersion") == null
            ? null
            : metadata.get("resourceVersion").getAsString();
      }
    }

    /** The object no longer exists. */
    record Gone() implements Result {}

    /** The object changed since the patch was made (HTTP 409): nothing was written. */
    record Conflict() implements Result {}

    /** This replica may no longer write as leader: nothing was sent. */
    record Fenced() implements Result {}
  }

  private final ApiClient client;
  private final CustomObjectsApi api;
  private final Backoff backoff;
  private final LeadershipFence fence;
  private final Duration retryBudget;
  private final LongSupplier nanoClock;

  public StatusPatcher(
      ApiClient client, Backoff backoff, LeadershipFence fence, Duration retryBudget) {
    this(client, backoff, fence, retryBudget, System::nanoTime);
  }

  StatusPatcher(
      ApiClient client,
      Backoff backoff,
      LeadershipFence fence,
      Duration retryBudget,
      LongSupplier nanoClock) {
    this.client = client;
    this.api = new CustomObjectsApi(client);
    this.backoff = backoff;
    this.fence = fence;
    this.retryBudget = retryBudget;
    this.nanoClock = nanoClock;
  }

  /** A custom resource; {@code namespace} is null for a cluster-scoped one (a Queue). */
  public record Target(String group, String version, String plural, String namespace, String name) {

    /** A cluster-scoped custom resource. */
    public static Target clusterScoped(String group, String version, String plural, String name) {
      return new Target(group, version, plural, null, name);
    }

    @Override
    public String toString() {
      return plural + "." + group + " " + (namespace == null ? "" : namespace + "/") + name;
    }
  }

  /**
   * Sends {@code patch}, e.g. {@code
   * {"metadata":{"resourceVersion":"42"},"status":{"stage":"Running"}}}.
   *
   * @throws StatusPatchException when the API server refuses it, or it still fails when the
   *     attempts or the retry budget run out
   */
  public Result patch(Target target, String patch) {
    long started = nanoClock.getAsLong();
    for (int attempt = 1; ; attempt++) {
      if (!fence.mayWrite()) {
        log.debug(
            "status patch on {} not sent: this replica may no longer write as leader", target);
        return new Result.Fenced();
      }
      try {
        return new Result.Patched(send(target, patch));
      } catch (ApiException e) {
        int code = e.getCode();
        if (code == 404) {
          return new Result.Gone();
        }
        if (code == 409) {
          return new Result.Conflict();
        }
        if (!retryable(code)) {
          throw new StatusPatchException(
              "status patch on "
                  + target
                  + " refused with HTTP "
                  + code
                  + ": "
                  + e.getResponseBody(),
              code,
              e);
        }
        Duration pause = backoff.delay(attempt);
        Duration spent = Duration.ofNanos(nanoClock.getAsLong() - started);
        if (attempt >= backoff.maxAttempts() || spent.plus(pause).compareTo(retryBudget) >= 0) {
          throw new StatusPatchException(
              "status patch on "
                  + target
                  + " failed "
                  + attempt
                  + " times in "
                  + spent.toMillis()
                  + " ms; last: "
                  + describe(e),
              code,
              e);
        }
        log.debug(
            "status patch on {} failed ({}), retry {} in {} ms",
            target,
            describe(e),
            attempt,
            pause.toMillis());
        pause(pause, target);
      }
    }
  }

  private JsonObject send(Target target, String patch) throws ApiException {
    return PatchUtils.patch(
        JsonObject.class,
        () ->
            target.namespace() == null
                ? api.patchClusterCustomObjectStatus(
                        target.group(),
                        target.version(),
                        target.plural(),
                        target.name(),
                        new V1Patch(patch))
                    .buildCall(null)
                : api.patchNamespacedCustomObjectStatus(
                        target.group(),
                        target.version(),
                        target.namespace(),
                        target.plural(),
                        target.name(),
                        new V1Patch(patch))
                    .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  private static void pause(Duration pause, Target target) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StatusPatchException("interrupted while patching " + target, 0, e);
    }
  }

  /** 0 means no HTTP answer at all (connection refused, timeout). */
  static boolean retryable(int code) {
    return code == 0 || code == 429 || code >= 500;
  }

  private static String describe(ApiException e) {
    return e.getCode() == 0
        ? String.valueOf(e.getCause() == null ? e.getMessage() : e.getCause())
        : "HTTP " + e.getCode() + " " + e.getResponseBody();
  }
}
