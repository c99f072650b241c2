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
import io.tyrl.arranger.scheduler.framework.SessionFunctions.ScoreContextFn;
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
    add(tiers.jobOrders, fn);
  }

  public void queueOrder(QueueOrderFn fn) {
    add(tiers.queueOrders, fn);
  }

  public void nodeFilter(NodeFilterFn fn) {
    add(tiers.nodeFilters, fn);
  }

  public void predicate(PredicateFn fn) {
    add(tiers.predicates, fn);
  }

  /**
   * A predicate that judges a pod by the pods around it rather than by the node's room: checked
   * with every other predicate, and alone where preemption asks whether a node holds the pod once
   * its victims are gone ({@link Tiers#checkNeighbours}).
   */
  public void neighbourPredicate(PredicateFn fn) {
    add(tiers.predicates, fn);
    add(tiers.neighbourPredicates, fn);
  }

  /**
   * Adds a node score; {@code weight} multiplies it before scores add up. Its values are never kept
   * between searches: see {@link #nodeScore(NodeScoreFn, double, ScoreContextFn)}.
   */
  public void nodeScore(NodeScoreFn fn, double weight) {
    nodeScore(fn, weight, null);
  }

  /**
   * Adds a node score that says what it reads beyond the node ({@code context}), so that its value
   * for a node may be kept between searches for pods of one shape while the node and the context
   * stay as they were.
   */
  public void nodeScore(NodeScoreFn fn, double weight, ScoreContextFn context) {
    if (!(weight >= 0)) {
      throw new IllegalArgumentException(
          "plugin " + pluginName + ": node score weight must be >= 0, was " + weight);
    }
    tiers.nodeScores.register(
        new PluginEntry<>(pluginName, tier, Objects.requireNonNull(fn, "fn"), weight));
    if (context != null) {
      tiers.scoreContexts.put(fn, context);
    }
  }

  public void preemptableVictims(VictimsFn fn) {
    add(tiers.preemptableVictims, fn);
  }

  public void reclaimableVictims(VictimsFn fn) {
    add(tiers.reclaimableVictims, fn);
  }

  public void jobReady(JobReadyFn fn) {
    add(tiers.jobReady, fn);
  }

  public void jobPipelined(JobPipelinedFn fn) {
    add(tiers.jobPipelined, fn);
  }

  public void jobValid(JobValidFn fn) {
    add(tiers.jobValid, fn);
  }

  public void overused(OverusedFn fn) {
    add(tiers.overused, fn);
  }

  public void jobEnqueueable(JobEnqueueableFn fn) {
    add(tiers.jobEnqueueable, fn);
  }

  private <F> void add(Tiers.Registrations<F> registrations, F fn) {
    registrations.register(
        new PluginEntry<>(pluginName, tier, Objects.requireNonNull(fn, "fn"), 1));
  }
}
