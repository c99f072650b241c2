package io.tyrl.arranger.scheduler.conf;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The typed scheduler configuration: actions in the order they run, and tiers of plugins. */
public record SchedulerConfiguration(List<ActionConfiguration> actions, List<TierConfiguration> tiers) {

  public SchedulerConfiguration {
    actions = List.copyOf(actions);
    tiers = List.copyOf(tiers);
    Set<String> seenActions = new HashSet<>();
    for (ActionConfiguration action : actions) {
      if (!seenActions.add(action.name())) {
        throw new InvalidConfigurationException("action '" + action.name() + "' is listed twice");
      }
    }
    Set<String> seenPlugins = new HashSet<>();
    for (TierConfiguration tier : tiers) {
      for (PluginConfiguration plugin : tier.plugins()) {
        if (!seenPlugins.add(plugin.name())) {
          throw new InvalidConfigurationException("plugin '" + plugin.name() + "' is enabled twice");
        }
      }
    }
  }

  public List<String> actionNames() {
    return actions.stream().map(ActionConfiguration::name).toList();
  }
}
