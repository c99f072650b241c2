package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ConfigurationVocabulary;
import java.util.Optional;
import java.util.Set;

/**
 * Lets the configuration parser validate names and arguments against the registered plugins and
 * actions.
 */
public record SchedulerVocabulary(
    Registry<PluginDescriptor> plugins, Registry<ActionDescriptor> actions)
    implements ConfigurationVocabulary {

  @Override
  public Optional<ArgumentSchema> pluginArguments(String pluginName) {
    return plugins.find(pluginName).map(PluginDescriptor::arguments);
  }

  @Override
  public Optional<ArgumentSchema> actionArguments(String actionName) {
    return actions.find(actionName).map(ActionDescriptor::arguments);
  }

  @Override
  public Set<String> pluginNames() {
    return plugins.names();
  }

  @Override
  public Set<String> actionNames() {
    return actions.names();
  }
}
