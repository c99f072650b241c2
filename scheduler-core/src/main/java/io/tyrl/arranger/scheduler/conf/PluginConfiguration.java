package io.tyrl.arranger.scheduler.conf;

/** One plugin enabled in a tier, with its validated arguments. */
public record PluginConfiguration(String name, Arguments arguments) {

  public PluginConfiguration {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("plugin name must not be blank");
    }
    arguments = arguments == null ? Arguments.DEFAULTS : arguments;
  }

  public static PluginConfiguration of(String name) {
    return new PluginConfiguration(name, Arguments.DEFAULTS);
  }
}
