package io.tyrl.arranger.scheduler.conf;

import java.util.List;

/** One tier: plugins whose results combine before the next tier is consulted. */
public record TierConfiguration(List<PluginConfiguration> plugins) {

  public TierConfiguration {
    plugins = List.copyOf(plugins);
  }

  public static TierConfiguration of(PluginConfiguration... plugins) {
    return new TierConfiguration(List.of(plugins));
  }
}
