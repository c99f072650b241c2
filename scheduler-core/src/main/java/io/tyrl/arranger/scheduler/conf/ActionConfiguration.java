package io.tyrl.arranger.scheduler.conf;

/** One action in the cycle's order, with its validated arguments. */
public record ActionConfiguration(String name, Arguments arguments) {

  public ActionConfiguration {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("action name must not be blank");
    }
    arguments = arguments == null ? Arguments.DEFAULTS : arguments;
  }

  public static ActionConfiguration of(String name) {
    return new ActionConfiguration(name, Arguments.DEFAULTS);
  }
}
