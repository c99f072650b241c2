package io.tyrl.arranger.crd.read;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Between Gson's tree and the plain Java values (maps, lists, strings, numbers, booleans, null) the
 * contract's status codec reads and writes. Unlike Gson's own serializer this keeps {@code null}
 * map values, which a merge patch needs to remove a key; and it keeps numbers as written.
 */
public final class PlainJson {

  private PlainJson() {}

  public static JsonElement toJson(Object value) {
    if (value == null) {
      return JsonNull.INSTANCE;
    }
    if (value instanceof JsonElement json) {
      return json;
    }
    if (value instanceof String text) {
      return new JsonPrimitive(text);
    }
    if (value instanceof Number number) {
      return new JsonPrimitive(number);
    }
    if (value instanceof Boolean bool) {
      return new JsonPrimitive(bool);
    }
    if (value instanceof Map<?, ?> map) {
      JsonObject object = new JsonObject();
      map.forEach((key, member) -> object.add(String.valueOf(key), toJson(member)));
      return object;
    }
    if (value instanceof Iterable<?> items) {
      JsonArray array = new JsonArray();
      items.forEach(item -> array.add(toJson(item)));
      return array;
    }
    throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
  }

  /**
   * Objects become insertion-ordered maps, arrays lists, numbers {@link Number}s as written; JSON
   * null is null.
   */
  public static Object toPlain(JsonElement json) {
    if (json == null || json.isJsonNull()) {
      return null;
    }
    if (json.isJsonObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      json.getAsJsonObject()
          .entrySet()
          .forEach(entry -> map.put(entry.getKey(), toPlain(entry.getValue())));
      return map;
    }
    if (json.isJsonArray()) {
      List<Object> list = new ArrayList<>(json.getAsJsonArray().size());
      json.getAsJsonArray().forEach(item -> list.add(toPlain(item)));
      return list;
    }
    JsonPrimitive primitive = json.getAsJsonPrimitive();
    if (primitive.isBoolean()) {
      return primitive.getAsBoolean();
    }
    return primitive.isNumber() ? primitive.getAsNumber() : primitive.getAsString();
  }
}
