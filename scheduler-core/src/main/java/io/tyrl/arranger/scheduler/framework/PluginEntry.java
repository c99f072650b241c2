package io.tyrl.arranger.scheduler.framework;

/**
 * One function one plugin registered when the session opened, in the tier the plugin sits in.
 * {@link PluginHooks} is the only place entries are made, so {@code fn} is always of the type its
 * {@code kind} names.
 *
 * @param weight multiplies a node score; 1 for every other kind
 */
record PluginEntry(String plugin, int tier, Kind kind, Object fn, double weight) {

  /** The kinds of function a plugin may register; {@link Tiers} combines each its own way. */
  enum Kind {
    JOB_ORDER, QUEUE_ORDER, NODE_FILTER, PREDICATE, NODE_SCORE, PREEMPTABLE, RECLAIMABLE, JOB_READY, JOB_PIPELINED,
    JOB_VALID, OVERUSED, JOB_ENQUEUEABLE
  }
}
