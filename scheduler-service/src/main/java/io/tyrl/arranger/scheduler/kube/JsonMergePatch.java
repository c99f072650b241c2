package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/** RFC 7386 JSON merge patch, applied as the API server applies the scheduler's status patches. */
final class JsonMergePatch {

  private JsonMergePatch() {}

  /** {@code target} with {@code patch} merged in; neither argument is changed. */
  static JsonElement apply(JsonElement target, JsonElement patch) {
    if (patch == null || !patch.isJsonObject()) {
      return patch;
    }
    JsonObject result =
        target != null && target.isJsonObject()
            ? target.getAsJsonObject().deepCopy()
            : new JsonObject();
    for (Map.Entry<String, JsonElement> member : patch.getAsJsonObject().entrySet()) {
      if (member.getValue().isJsonNull()) {
        result.remove(member.getKey());
      } else {
        result.add(member.getKey(), apply(result.get(member.getKey()), member.getValue()));
      }
    }
    return result;
  }
}
