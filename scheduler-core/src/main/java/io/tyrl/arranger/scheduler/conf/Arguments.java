package io.tyrl.arranger.scheduler.conf;

import java.util.Map;

/**
 * Validated argument values of one configured plugin or action. Values not given fall back to the
 * spec's default, so a plugin reads {@code arguments.get(WEIGHT)} without caring whether it was
 * set.
 */
public record Arguments(Map<String, Object> values) {

  public static final Arguments DEFAULTS = new Arguments(Map.of());

  public Arguments {
    values = Map.copyOf(values);
  }

  public <T> T get(ArgumentSpec<T> spec) {
    Object value = values.get(spec.name());
    if (value == null) {
      return spec.defaultValue();
    }
    @SuppressWarnings("unchecked")
    T typed = (T) value;
    return typed;
  }

  /**
   * Sets a value after converting it with the spec, for building configurations in code and tests.
   */
  public <T> Arguments with(ArgumentSpec<T> spec, Object raw) {
    Map<String, Object> copy = new java.util.HashMap<>(values);
    copy.put(spec.name(), spec.convert(raw));
    return new Arguments(copy);
  }
}
