package io.tyrl.arranger.scheduler.framework;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Named entries that refuse a second registration under the same name, instead of silently
 * replacing the first.
 */
public final class Registry<T> {

  private final String kind;
  private final Function<T, String> nameOf;
  private final Map<String, T> entries = new LinkedHashMap<>();

  public Registry(String kind, Function<T, String> nameOf) {
    this.kind = kind;
    this.nameOf = nameOf;
  }

  public static Registry<PluginDescriptor> plugins() {
    return new Registry<>("plugin", PluginDescriptor::name);
  }

  public static Registry<ActionDescriptor> actions() {
    return new Registry<>("action", ActionDescriptor::name);
  }

  public synchronized Registry<T> register(T entry) {
    String name = nameOf.apply(entry);
    if (entries.containsKey(name)) {
      throw new IllegalArgumentException(kind + " '" + name + "' is already registered");
    }
    entries.put(name, entry);
    return this;
  }

  public synchronized Optional<T> find(String name) {
    return Optional.ofNullable(entries.get(name));
  }

  public synchronized T get(String name) {
    return find(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown " + kind + " '" + name + "'; known: " + entries.keySet()));
  }

  public synchronized Set<String> names() {
    return Set.copyOf(entries.keySet());
  }
}
