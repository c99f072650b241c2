package io.tyrl.arranger.scheduler.conf;

import java.util.Optional;
import java.util.Set;

/**
 * The plugins and actions a scheduler knows, and the arguments each accepts; used to validate
 * configuration.
 */
public interface ConfigurationVocabulary {

  Optional<ArgumentSchema> pluginArguments(String pluginName);

  Optional<ArgumentSchema> actionArguments(String actionName);

  Set<String> pluginNames();

  Set<String> actionNames();
}
