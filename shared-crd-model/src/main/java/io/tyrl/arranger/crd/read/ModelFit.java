package io.tyrl.arranger.crd.read;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.openapi.models.V1Container;
import io.tyrl.arranger.crd.read.TYJobDecoder.Refusal;
import io.tyrl.arranger.model.V1alpha1TYJob;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether stored JSON fits the generated model's Java types exactly, field by field. Gson reads a
 * tree leniently where a TYJob must not be read so: it wraps an integer beyond int32
 * (kube-apiserver 1.20 stores one, ignoring {@code format: int32}), reads {@code 2.5} as 2, {@code
 * "3"} as 3, {@code 3} as {@code "3"} and {@code "yes"} as false. The walk goes into pod templates
 * and volumes (the Kubernetes client's classes), so that a misfit there is named down to its field
 * too; a required field of those classes that is missing is named as well. Fields of the TYJob
 * model that are missing are left to the bounds, which say what each must be. Fields a TYJob model
 * class does not have are left alone, as Gson leaves them: a field added to the CRD must not make a
 * service that does not know it yet refuse every job using it. What the walk does not know
 * (quantities, int-or-string values, fields a pod does not have) is left to Gson, which refuses it.
 */
final class ModelFit {

  /** Offending values are quoted up to this length, so that a long value makes no long message. */
  private static final int MAX_QUOTED_LENGTH = 80;

  private static final String MODEL_PACKAGE = V1alpha1TYJob.class.getPackageName();
  private static final String CLIENT_MODEL_PACKAGE = V1Container.class.getPackageName();
  private static final Map<Class<?>, Map<String, Field>> FIELDS = new ConcurrentHashMap<>();
  private static final Map<Class<?>, List<String>> REQUIRED = new ConcurrentHashMap<>();

  private ModelFit() {}

  /**
   * The first value in {@code json} that {@code model} cannot hold as it is, named by its path
   * under {@code path}.
   */
  static Optional<Refusal> misfit(JsonElement json, Type model, String path) {
    if (json == null || json.isJsonNull()) {
      return Optional.empty();
    }
    Class<?> raw = rawClass(model);
    if (List.class.isAssignableFrom(raw)) {
      if (!json.isJsonArray()) {
        return refuse(path, json, "a list");
      }
      JsonArray items = json.getAsJsonArray();
      for (int i = 0; i < items.size(); i++) {
        Optional<Refusal> refusal =
            misfit(items.get(i), typeArgument(model, 0), path + "[" + i + "]");
        if (refusal.isPresent()) {
          return refusal;
        }
      }
      return Optional.empty();
    }
    if (Map.class.isAssignableFrom(raw)) {
      if (!json.isJsonObject()) {
        return refuse(path, json, "a map");
      }
      for (Map.Entry<String, JsonElement> entry : json.getAsJsonObject().entrySet()) {
        Optional<Refusal> refusal =
            misfit(entry.getValue(), typeArgument(model, 1), path + "[" + entry.getKey() + "]");
        if (refusal.isPresent()) {
          return refusal;
        }
      }
      return Optional.empty();
    }
    if (isGenerated(raw)) {
      if (!json.isJsonObject()) {
        return refuse(path, json, "an object");
      }
      Map<String, Field> fields = fields(raw);
      for (String required : clientRequiredFields(raw)) {
        JsonElement value = json.getAsJsonObject().get(required);
        if (value == null || value.isJsonNull()) {
          return Optional.of(new Refusal(member(path, required), "is required"));
        }
      }
      for (Map.Entry<String, JsonElement> entry : json.getAsJsonObject().entrySet()) {
        Field field = fields.get(entry.getKey());
        if (field != null) {
          Optional<Refusal> refusal =
              misfit(entry.getValue(), field.getGenericType(), member(path, entry.getKey()));
          if (refusal.isPresent()) {
            return refusal;
          }
        }
      }
      return Optional.empty();
    }
    return scalarMisfit(json, raw).map(complaint -> new Refusal(path, complaint));
  }

  /**
   * {@code json} without the values {@code model} cannot hold, at any depth: for the parts of a
   * TYJob the services write themselves, where one bad value should cost that value only. Empty
   * when {@code json} itself does not fit.
   */
  static Optional<JsonElement> fitting(JsonElement json, Type model) {
    if (json == null || json.isJsonNull()) {
      return Optional.ofNullable(json);
    }
    if (!isContainer(model)) {
      return misfit(json, model, "").isEmpty() ? Optional.of(json) : Optional.empty();
    }
    Class<?> raw = rawClass(model);
    if (List.class.isAssignableFrom(raw)) {
      if (!json.isJsonArray()) {
        return Optional.empty();
      }
      JsonArray kept = new JsonArray();
      json.getAsJsonArray()
          .forEach(item -> fitting(item, typeArgument(model, 0)).ifPresent(kept::add));
      return Optional.of(kept);
    }
    if (!json.isJsonObject()) {
      return Optional.empty();
    }
    JsonObject kept = new JsonObject();
    Map<String, Field> fields = isGenerated(raw) ? fields(raw) : Map.of();
    for (Map.Entry<String, JsonElement> entry : json.getAsJsonObject().entrySet()) {
      Field field = fields.get(entry.getKey());
      if (Map.class.isAssignableFrom(raw)) {
        fitting(entry.getValue(), typeArgument(model, 1))
            .ifPresent(value -> kept.add(entry.getKey(), value));
      } else if (field == null) {
        kept.add(entry.getKey(), entry.getValue());
      } else {
        fitting(entry.getValue(), field.getGenericType())
            .ifPresent(value -> kept.add(entry.getKey(), value));
      }
    }
    return Optional.of(kept);
  }

  private static boolean isContainer(Type model) {
    Class<?> raw = rawClass(model);
    return List.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw) || isGenerated(raw);
  }

  private static Optional<String> scalarMisfit(JsonElement json, Class<?> type) {
    if (type == Integer.class) {
      return wholeNumber(json).filter(ModelFit::fitsInt).isPresent()
          ? Optional.empty()
          : Optional.of(shown(json) + " is not a 32-bit integer");
    }
    if (type == Long.class) {
      return wholeNumber(json).filter(ModelFit::fitsLong).isPresent()
          ? Optional.empty()
          : Optional.of(shown(json) + " is not a 64-bit integer");
    }
    if (type == Boolean.class) {
      return json.isJsonPrimitive() && json.getAsJsonPrimitive().isBoolean()
          ? Optional.empty()
          : Optional.of(shown(json) + " is not true or false");
    }
    if (type == String.class) {
      return isString(json) ? Optional.empty() : Optional.of(shown(json) + " is not a string");
    }
    if (type == OffsetDateTime.class) {
      return isString(json) && isDateTime(json.getAsString())
          ? Optional.empty()
          : Optional.of(shown(json) + " is not a date-time such as 2026-01-02T15:04:05Z");
    }
    if (type.isEnum()) {
      List<String> values = Arrays.stream(type.getEnumConstants()).map(String::valueOf).toList();
      return isString(json) && values.contains(json.getAsString())
          ? Optional.empty()
          : Optional.of(shown(json) + " is not one of " + String.join(", ", values));
    }
    // The Kubernetes client's own types (pod templates, volumes, quantities) refuse for themselves.
    return Optional.empty();
  }

  private static Optional<BigDecimal> wholeNumber(JsonElement json) {
    if (!json.isJsonPrimitive() || !json.getAsJsonPrimitive().isNumber()) {
      return Optional.empty();
    }
    try {
      return Optional.of(json.getAsBigDecimal());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static boolean fitsInt(BigDecimal number) {
    try {
      number.intValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  private static boolean fitsLong(BigDecimal number) {
    try {
      number.longValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  private static boolean isString(JsonElement json) {
    return json.isJsonPrimitive() && json.getAsJsonPrimitive().isString();
  }

  private static boolean isDateTime(String text) {
    try {
      OffsetDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static Optional<Refusal> refuse(String path, JsonElement json, String expected) {
    return Optional.of(new Refusal(path, shown(json) + " is not " + expected));
  }

  /** A value as written in JSON (strings quoted), cut; a list or an object by its kind only. */
  static String shown(JsonElement json) {
    if (json.isJsonArray()) {
      return "a list";
    }
    if (json.isJsonObject()) {
      return "an object";
    }
    String text = json.toString();
    return text.length() <= MAX_QUOTED_LENGTH
        ? text
        : text.substring(0, MAX_QUOTED_LENGTH - 3) + "...";
  }

  private static String member(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static boolean isGenerated(Class<?> type) {
    return (type.getPackageName().equals(MODEL_PACKAGE)
            || type.getPackageName().equals(CLIENT_MODEL_PACKAGE))
        && !type.isEnum();
  }

  /**
   * The fields a class of the Kubernetes client requires, as its own reader does; none for the
   * TYJob model.
   */
  private static List<String> clientRequiredFields(Class<?> model) {
    if (!model.getPackageName().equals(CLIENT_MODEL_PACKAGE)) {
      return List.of();
    }
    return REQUIRED.computeIfAbsent(
        model,
        type -> {
          try {
            Object required = type.getField("openapiRequiredFields").get(null);
            return required instanceof Collection<?> names
                ? names.stream().map(String::valueOf).sorted().toList()
                : List.of();
          } catch (ReflectiveOperationException e) {
            return List.of();
          }
        });
  }

  private static Map<String, Field> fields(Class<?> model) {
    return FIELDS.computeIfAbsent(
        model,
        type -> {
          Map<String, Field> byJsonName = new HashMap<>();
          for (Field field : type.getDeclaredFields()) {
            SerializedName name = field.getAnnotation(SerializedName.class);
            if (name != null && !Modifier.isStatic(field.getModifiers())) {
              byJsonName.put(name.value(), field);
            }
          }
          return Map.copyOf(byJsonName);
        });
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized) {
      return (Class<?>) parameterized.getRawType();
    }
    return Object.class;
  }

  private static Type typeArgument(Type type, int index) {
    return type instanceof ParameterizedType parameterized
        ? parameterized.getActualTypeArguments()[index]
        : Object.class;
  }
}
