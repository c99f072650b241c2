package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;

/**
 * Tolerant reads from a TYJob as stored. The pod templates in a TYJob are free-form, so a field may
 * hold any JSON type; a value of the wrong type reads as absent here and is reported by validation,
 * instead of failing the read of the whole object.
 */
final class RawJson {

  private RawJson() {}

  static Optional<JsonObject> object(JsonObject parent, String member) {
    JsonElement element = parent == null ? null : parent.get(member);
    return element != null && element.isJsonObject() ? Optional.of(element.getAsJsonObject()) : Optional.empty();
  }

  static JsonObject objectOrEmpty(JsonObject parent, String member) {
    return object(parent, member).orElseGet(JsonObject::new);
  }

  static List<JsonObject> objects(JsonObject parent, String member) {
    JsonElement element = parent == null ? null : parent.get(member);
    if (element == null || !element.isJsonArray()) {
      return List.of();
    }
    JsonArray array = element.getAsJsonArray();
    return StreamSupport.stream(array.spliterator(), false)
        .map(item -> item.isJsonObject() ? item.getAsJsonObject() : new JsonObject())
        .toList();
  }

  static List<String> strings(JsonObject parent, String member) {
    JsonElement element = parent == null ? null : parent.get(member);
    if (element == null || !element.isJsonArray()) {
      return List.of();
    }
    return StreamSupport.stream(element.getAsJsonArray().spliterator(), false)
        .filter(item -> item.isJsonPrimitive())
        .map(JsonElement::getAsString)
        .toList();
  }

  static Optional<String> string(JsonObject parent, String member) {
    JsonElement element = parent == null ? null : parent.get(member);
    return element != null && element.isJsonPrimitive() ? Optional.of(element.getAsString()) : Optional.empty();
  }

  static Optional<Long> number(JsonObject parent, String member) {
    JsonElement element = parent == null ? null : parent.get(member);
    if (element == null || !element.isJsonPrimitive() || !element.getAsJsonPrimitive().isNumber()) {
      return Optional.empty();
    }
    try {
      return Optional.of(element.getAsLong());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** A number as stored, whatever its size, or {@code fallback} when absent (or not a whole number). */
  static long longOr(JsonObject parent, String member, long fallback) {
    return number(parent, member).orElse(fallback);
  }

  static int intOr(JsonObject parent, String member, int fallback) {
    return number(parent, member)
        .filter(value -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE)
        .map(Long::intValue)
        .orElse(fallback);
  }

  static boolean booleanOr(JsonObject parent, String member, boolean fallback) {
    JsonElement element = parent == null ? null : parent.get(member);
    return element != null && element.isJsonPrimitive() && element.getAsJsonPrimitive().isBoolean()
        ? element.getAsBoolean()
        : fallback;
  }

  /**
   * A map of scalars as text, e.g. {@code resources.requests}. A non-scalar value is kept as its JSON
   * text so that validation reports it as "not a quantity" with its field, rather than dropping it.
   */
  static Map<String, String> textMap(JsonObject parent, String member) {
    Map<String, String> values = new LinkedHashMap<>();
    object(parent, member).ifPresent(map -> map.entrySet().forEach(entry -> {
      JsonElement value = entry.getValue();
      if (!value.isJsonNull()) {
        values.put(entry.getKey(), value.isJsonPrimitive() ? value.getAsString() : value.toString());
      }
    }));
    return values;
  }
}
