package io.tyrl.arranger.scheduler.conf;

import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The typed scheduler configuration: actions in the order they run, tiers of plugins, and the job
 * order of queues that name none ({@code defaultJobQueuePolicy}; Priority unless set), the
 * cluster's topology levels ({@code topology.levels}; none unless set), and fairness over time
 * ({@code fairness}; {@link FairnessConfiguration#DEFAULT} unless set).
 */
public record SchedulerConfiguration(
    List<ActionConfiguration> actions,
    List<TierConfiguration> tiers,
    JobQueuePolicy defaultJobQueuePolicy,
    TopologyLevels topologyLevels,
    FairnessConfiguration fairness) {

  public SchedulerConfiguration {
    fairness = fairness == null ? FairnessConfiguration.DEFAULT : fairness;
    topologyLevels = topologyLevels == null ? TopologyLevels.NONE : topologyLevels;
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

  /** A configuration with the default fairness. */
  public SchedulerConfiguration(
      List<ActionConfiguration> actions,
      List<TierConfiguration> tiers,
      JobQueuePolicy defaultJobQueuePolicy,
      TopologyLevels topologyLevels) {
    this(actions, tiers, defaultJobQueuePolicy, topologyLevels, FairnessConfiguration.DEFAULT);
  }

  /** A configuration without topology levels. */
  public SchedulerConfiguration(
      List<ActionConfiguration> actions,
      List<TierConfiguration> tiers,
      JobQueuePolicy defaultJobQueuePolicy) {
    this(actions, tiers, defaultJobQueuePolicy, TopologyLevels.NONE);
  }

  /** A configuration whose queues default to the Priority job order. */
  public SchedulerConfiguration(List<ActionConfiguration> actions, List<TierConfiguration> tiers) {
    this(actions, tiers, JobQueuePolicy.PRIORITY);
  }

  /** The same configuration with other topology levels. */
  public SchedulerConfiguration withTopologyLevels(TopologyLevels levels) {
    return new SchedulerConfiguration(actions, tiers, defaultJobQueuePolicy, levels, fairness);
  }

  /** The same configuration with other fairness settings. */
  public SchedulerConfiguration withFairness(FairnessConfiguration newFairness) {
    return new SchedulerConfiguration(
        actions, tiers, defaultJobQueuePolicy, topologyLevels, newFairness);
  }

  public List<String> actionNames() {
    return actions.stream().map(ActionConfiguration::name).toList();
  }
}
