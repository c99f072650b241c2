package io.tyrl.arranger.scheduler.replay;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * {@link CycleInput} as JSON and back. The core's values are records, enums, strings, numbers,
 * instants, durations, lists, sets and maps with string keys all the way down, so one generic
 * mapping follows their components: a value added to a record is in the file without a change here.
 * Reading uses SnakeYAML (JSON is YAML, and it is the core's one parser), so the core stays free of
 * a JSON library.
 */
public final class CycleInputJson {

  /** The format's name and version, the document's first field. */
  public static final String FORMAT = "arranger-cycle-input/1";

  private CycleInputJson() {}

  public static String write(CycleInput input) {
    StringBuilder json = new StringBuilder();
    json.append("{\"format\":");
    string(json, FORMAT);
    for (RecordComponent component : CycleInput.class.getRecordComponents()) {
      json.append(',');
      string(json, component.getName());
      json.append(':');
      value(json, read(component, input));
    }
    return json.append("}\n").toString();
  }

  /**
   * @throws IllegalArgumentException naming the path of the first value that does not fit, or the
   *     format when the text is not a cycle input of this version
   */
  public static CycleInput read(String json) {
    Object document;
    try {
      LoaderOptions options = new LoaderOptions();
      options.setCodePointLimit(Integer.MAX_VALUE);
      document = new Yaml(new SafeConstructor(options)).load(json);
    } catch (YAMLException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (!(document instanceof Map<?, ?> fields) || !FORMAT.equals(fields.get("format"))) {
      throw new IllegalArgumentException(
          "format: expected \"" + FORMAT + "\" (a file written by the scheduler's cycle dump)");
    }
    return (CycleInput) convert(document, CycleInput.class, "");
  }

  private static Object read(RecordComponent component, Record record) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }

  private static void value(StringBuilder json, Object value) {
    if (value == null) {
      json.append("null");
    } else if (value instanceof String text) {
      string(json, text);
    } else if (value instanceof Number || value instanceof Boolean) {
      json.append(value);
    } else if (value instanceof Enum<?> constant) {
      string(json, constant.name());
    } else if (value instanceof Instant || value instanceof Duration) {
      string(json, value.toString());
    } else if (value instanceof Record record) {
      json.append('{');
      boolean first = true;
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        if (!first) {
          json.append(',');
        }
        first = false;
        string(json, component.getName());
        json.append(':');
        value(json, read(component, record));
      }
      json.append('}');
    } else if (value instanceof Map<?, ?> map) {
      json.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          json.append(',');
        }
        first = false;
        string(json, String.valueOf(entry.getKey()));
        json.append(':');
        value(json, entry.getValue());
      }
      json.append('}');
    } else if (value instanceof Collection<?> items) {
      json.append('[');
      boolean first = true;
      for (Object item : items) {
        if (!first) {
          json.append(',');
        }
        first = false;
        value(json, item);
      }
      json.append(']');
    } else {
      throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
    }
  }

  private static void string(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          // Control characters escaped (JSON and YAML both refuse them raw); the rest as it is.
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  private static Object convert(Object value, Type type, String path) {
    if (value == null) {
      if (type instanceof Class<?> cls && cls.isPrimitive()) {
        throw new IllegalArgumentException(where(path) + "must not be null");
      }
      return null;
    }
    Class<?> raw = raw(type);
    try {
      if (raw == String.class) {
        return (String) value;
      }
      if (raw == int.class || raw == Integer.class) {
        return ((Number) value).intValue();
      }
      if (raw == long.class || raw == Long.class) {
        return ((Number) value).longValue();
      }
      if (raw == double.class || raw == Double.class) {
        return ((Number) value).doubleValue();
      }
      if (raw == boolean.class || raw == Boolean.class) {
        return (Boolean) value;
      }
      if (raw == Instant.class) {
        return Instant.parse((String) value);
      }
      if (raw == Duration.class) {
        return Duration.parse((String) value);
      }
      if (raw.isEnum()) {
        try {
          return enumConstant(raw, (String) value);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              where(path) + "no " + raw.getSimpleName() + " named " + value, e);
        }
      }
      if (raw.isRecord()) {
        return record(raw, (Map<?, ?>) value, path);
      }
      if (List.class.isAssignableFrom(raw) || Set.class.isAssignableFrom(raw)) {
        Type element = argument(type, 0);
        Collection<Object> items =
            Set.class.isAssignableFrom(raw) ? new LinkedHashSet<>() : new ArrayList<>();
        int index = 0;
        for (Object item : (List<?>) value) {
          items.add(convert(item, element, path + "[" + index++ + "]"));
        }
        return items;
      }
      if (Map.class.isAssignableFrom(raw)) {
        if (raw(argument(type, 0)) != String.class) {
          throw new IllegalArgumentException(where(path) + "only maps with string keys are read");
        }
        Type element = argument(type, 1);
        Map<String, Object> map =
            SortedMap.class.isAssignableFrom(raw) ? new TreeMap<>() : new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          String key = String.valueOf(entry.getKey());
          map.put(key, convert(entry.getValue(), element, path + "." + key));
        }
        return map;
      }
    } catch (ClassCastException | java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException(
          where(path) + "expected " + raw.getSimpleName() + ", found " + value, e);
    }
    throw new IllegalArgumentException(where(path) + "no reader for " + raw.getName());
  }

  private static Object record(Class<?> raw, Map<?, ?> fields, String path) {
    RecordComponent[] components = raw.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] arguments = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent component = components[i];
      types[i] = component.getType();
      String at = path.isEmpty() ? component.getName() : path + "." + component.getName();
      arguments[i] = convert(fields.get(component.getName()), component.getGenericType(), at);
    }
    try {
      Constructor<?> canonical = raw.getDeclaredConstructor(types);
      canonical.setAccessible(true);
      return canonical.newInstance(arguments);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw new IllegalArgumentException(where(path) + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + raw.getName(), e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> raw, String name) {
    return Enum.valueOf((Class<? extends Enum>) raw, name);
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> cls) {
      return cls;
    }
    if (type instanceof ParameterizedType parameterized) {
      return (Class<?>) parameterized.getRawType();
    }
    throw new IllegalArgumentException("no reader for " + type);
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType parameterized) {
      return parameterized.getActualTypeArguments()[index];
    }
    return Object.class;
  }

  private static String where(String path) {
    return (path.isEmpty() ? "the document" : path) + ": ";
  }
}
