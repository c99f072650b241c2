package io.tyrl.arranger.scheduler.framework;

/**
 * Told of every change to a node's ledger in a session (a pod placed, pipelined, evicted, or any of
 * those undone), just before and just after it: how an index derived from the ledgers (the free
 * room of each topology domain) stays true without a pass over the nodes each time it is read.
 */
public interface NodeLedgerWatcher {

  /**
   * The node's ledger is about to change: what was derived from it is taken off (nothing, for a
   * watcher that only notes which nodes changed).
   */
  default void beforeChange(NodeState node) {}

  /** The node's ledger has changed: what is derived from it is added back. */
  void afterChange(NodeState node);
}
