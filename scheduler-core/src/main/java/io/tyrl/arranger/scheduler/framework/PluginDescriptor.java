package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.Arguments;
import java.util.Objects;
import java.util.function.Function;

/** A plugin's name, the arguments it accepts and how to make an instance for a session. */
public record PluginDescriptor(
    String name, ArgumentSchema arguments, Function<Arguments, Plugin> factory) {

  public PluginDescriptor {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("plugin name must not be blank");
    }
    Objects.requireNonNull(arguments, "arguments of plugin " + name);
    Objects.requireNonNull(factory, "factory of plugin " + name);
  }
}
