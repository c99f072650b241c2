package io.tyrl.arranger.scheduler.framework;

import java.util.List;

/**
 * Mechanism: one step of a cycle (enqueue, allocate, backfill, ...), acting on the session through
 * statements.
 */
public interface Action {

  void execute(Session session);

  /**
   * Steps that must have run in the cycle before this action. The scheduler runs each once, just
   * before the first action that names it; steps of the same class count as one.
   */
  default List<Action> prerequisites() {
    return List.of();
  }
}
