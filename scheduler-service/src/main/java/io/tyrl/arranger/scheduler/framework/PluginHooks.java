package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobEnqueueableFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobOrderFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobPipelinedFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobReadyFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobValidFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.NodeFilterFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.NodeScoreFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.OverusedFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.PredicateFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.QueueOrderFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.VictimsFn;

/** What one plugin may register when a session opens; everything lands in the plugin's tier. */
public final class PluginHooks {

  private final Tiers.Tier tier;
  private final String pluginName;

  PluginHooks(Tiers.Tier tier, String pluginName) {
    this.tier = tier;
    this.pluginName = pluginName;
  }

  public String pluginName() {
    return pluginName;
  }

  public void jobOrder(JobOrderFn fn) {
    tier.jobOrders.add(fn);
  }

  public void queueOrder(QueueOrderFn fn) {
    tier.queueOrders.add(fn);
  }

  public void nodeFilter(NodeFilterFn fn) {
    tier.nodeFilters.add(fn);
  }

  public void predicate(PredicateFn fn) {
    tier.predicates.add(fn);
  }

  /** Adds a node score; {@code weight} multiplies it before scores add up. */
  public void nodeScore(NodeScoreFn fn, double weight) {
    if (!(weight >= 0)) {
      throw new IllegalArgumentException("plugin " + pluginName + ": node score weight must be >= 0, was " + weight);
    }
    tier.nodeScores.add(new Tiers.WeightedScore(fn, weight));
  }

  public void preemptableVictims(VictimsFn fn) {
    tier.preemptable.add(fn);
  }

  public void reclaimableVictims(VictimsFn fn) {
    tier.reclaimable.add(fn);
  }

  public void jobReady(JobReadyFn fn) {
    tier.jobReady.add(fn);
  }

  public void jobPipelined(JobPipelinedFn fn) {
    tier.jobPipelined.add(fn);
  }

  public void jobValid(JobValidFn fn) {
    tier.jobValid.add(fn);
  }

  public void overused(OverusedFn fn) {
    tier.overused.add(fn);
  }

  public void jobEnqueueable(JobEnqueueableFn fn) {
    tier.jobEnqueueable.add(fn);
  }
}
