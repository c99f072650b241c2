package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.framework.PluginEntry.Kind;
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
import java.util.Objects;

/** What one plugin may register when a session opens; everything lands in the plugin's tier. */
public final class PluginHooks {

  private final Tiers tiers;
  private final String pluginName;
  private final int tier;

  PluginHooks(Tiers tiers, String pluginName, int tier) {
    this.tiers = tiers;
    this.pluginName = pluginName;
    this.tier = tier;
  }

  public String pluginName() {
    return pluginName;
  }

  public void jobOrder(JobOrderFn fn) {
    add(Kind.JOB_ORDER, fn);
  }

  public void queueOrder(QueueOrderFn fn) {
    add(Kind.QUEUE_ORDER, fn);
  }

  public void nodeFilter(NodeFilterFn fn) {
    add(Kind.NODE_FILTER, fn);
  }

  public void predicate(PredicateFn fn) {
    add(Kind.PREDICATE, fn);
  }

  /** Adds a node score; {@code weight} multiplies it before scores add up. */
  public void nodeScore(NodeScoreFn fn, double weight) {
    if (!(weight >= 0)) {
      throw new IllegalArgumentException("plugin " + pluginName + ": node score weight must be >= 0, was " + weight);
    }
    tiers.register(new PluginEntry(pluginName, tier, Kind.NODE_SCORE, Objects.requireNonNull(fn, "fn"), weight));
  }

  public void preemptableVictims(VictimsFn fn) {
    add(Kind.PREEMPTABLE, fn);
  }

  public void reclaimableVictims(VictimsFn fn) {
    add(Kind.RECLAIMABLE, fn);
  }

  public void jobReady(JobReadyFn fn) {
    add(Kind.JOB_READY, fn);
  }

  public void jobPipelined(JobPipelinedFn fn) {
    add(Kind.JOB_PIPELINED, fn);
  }

  public void jobValid(JobValidFn fn) {
    add(Kind.JOB_VALID, fn);
  }

  public void overused(OverusedFn fn) {
    add(Kind.OVERUSED, fn);
  }

  public void jobEnqueueable(JobEnqueueableFn fn) {
    add(Kind.JOB_ENQUEUEABLE, fn);
  }

  private void add(Kind kind, Object fn) {
    tiers.register(new PluginEntry(pluginName, tier, kind, Objects.requireNonNull(fn, "fn"), 1));
  }
}
