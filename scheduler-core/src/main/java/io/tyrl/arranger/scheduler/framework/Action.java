package io.tyrl.arranger.scheduler.framework;

/** Mechanism: one step of a cycle (enqueue, allocate, backfill, ...), acting on the session through statements. */
public interface Action {

  void execute(Session session);
}
