package io.tyrl.arranger.testing;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.Call;

/**
 * JSON merge patches through {@link PatchUtils}, which sets the merge-patch content type; the
 * generated patch calls of client-java 24 send {@code application/json}, which the API server
 * refuses.
 */
final class MergePatch {

  interface CallFactory {
    Call call(V1Patch patch) throws ApiException;
  }

  private MergePatch() {}

  static <T> T apply(Class<T> type, ApiClient client, String json, CallFactory factory) {
    V1Patch patch = new V1Patch(json);
    try {
      return PatchUtils.patch(
          type, () -> factory.call(patch), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    } catch (ApiException e) {
      throw new IllegalStateException(
          "merge patch " + json + " refused (HTTP " + e.getCode() + "): " + e.getResponseBody(), e);
    }
  }
}
