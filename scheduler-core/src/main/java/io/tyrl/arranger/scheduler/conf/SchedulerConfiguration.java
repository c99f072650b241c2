package io.tyrl.arranger.scheduler.conf;

import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The typed scheduler configuration: actions in the order they run, tiers of plugins, and the job
 * order of queues that name none ({@code defaultJobQueuePolicy}; Priority unless set).
 */
public record SchedulerConfiguration(
    List<ActionConfiguration> actions,
    List<TierConfiguration> tiers,
    JobQueuePolicy defaultJobQueuePolicy) {

  public SchedulerConfiguration {
    defaultJobQueuePolicy =
        defaultJobQueuePolicy == null ? JobQueuePolicy.PRIORITY : defaultJobQueuePolicy;
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
          throw new InvalidConfigurationException(
              "plugin '" + plugin.name() + "' is enabled twice");
        }
      }
    }
  }

  /** A configuration whose queues default to the Priority job order. */
  public SchedulerConfiguration(List<ActionConfiguration> actions, List<TierConfiguration> tiers) {
    this(actions, tiers, JobQueuePolicy.PRIORITY);
  }

  public List<String> actionNames() {
    return actions.stream().map(ActionConfiguration::name).toList();
  }
}
