package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.Arguments;
import java.util.Objects;
import java.util.function.Function;

/** An action's name, the arguments it accepts and how to make it. */
public record ActionDescriptor(
    String name, ArgumentSchema arguments, Function<Arguments, Action> factory) {

  public ActionDescriptor {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("action name must not be blank");
    }
    Objects.requireNonNull(arguments, "arguments of action " + name);
    Objects.requireNonNull(factory, "factory of action " + name);
  }
}
