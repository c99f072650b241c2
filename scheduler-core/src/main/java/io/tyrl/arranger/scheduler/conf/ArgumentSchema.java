package io.tyrl.arranger.scheduler.conf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments a plugin or action accepts; anything else is refused when configuration is read.
 */
public record ArgumentSchema(Map<String, ArgumentSpec<?>> specs) {

  public static final ArgumentSchema NONE = new ArgumentSchema(Map.of());

  public ArgumentSchema {
    specs = Map.copyOf(specs);
  }

  public static ArgumentSchema of(ArgumentSpec<?>... specs) {
    Map<String, ArgumentSpec<?>> byName = new LinkedHashMap<>();
    for (ArgumentSpec<?> spec : specs) {
      if (byName.put(spec.name(), spec) != null) {
        throw new IllegalArgumentException("argument " + spec.name() + " declared twice");
      }
    }
    return new ArgumentSchema(byName);
  }

  public Optional<ArgumentSpec<?>> find(String name) {
    return Optional.ofNullable(specs.get(name));
  }

  public Set<String> names() {
    return specs.keySet();
  }

  public List<String> sortedNames() {
    return specs.keySet().stream().sorted().toList();
  }
}
