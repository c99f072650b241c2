package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction over the session: allocate, pipeline, evict and unallocate apply at once (so later
 * checks see them) and are recorded; {@link #commit()} keeps them, {@link #discard()} undoes them
 * in reverse order. This is how a gang's placements are dropped when its minimum is not met.
 */
public final class Statement {

  private enum Kind {
    ALLOCATE,
    PIPELINE,
    EVICT,
    UNALLOCATE
  }

  private record Operation(Kind kind, TaskState task, NodeState node) {}

  /**
   * A point inside an open statement to roll back to, keeping what came before it: how a gang is
   * tried in one topology domain after another within one statement.
   */
  public static final class Savepoint {
    private final int operations;
    private final long releaseGeneration;
    private final NodeSearch.Checkpoint search;

    private Savepoint(int operations, long releaseGeneration, NodeSearch.Checkpoint search) {
      this.operations = operations;
      this.releaseGeneration = releaseGeneration;
      this.search = search;
    }
  }

  private final Session session;
  private final List<Operation> operations = new ArrayList<>();
  private final long releaseGenerationAtStart;
  private final NodeSearch.Checkpoint searchAtStart;
  private boolean closed;

  Statement(Session session) {
    this.session = session;
    this.releaseGenerationAtStart = session.releaseGeneration();
    this.searchAtStart = session.nodeSearch().checkpoint();
    session.opened(this);
  }

  public void allocate(TaskState task, NodeState node) {
    requireOpen();
    session.place(task, node, TaskStatus.ALLOCATED);
    operations.add(new Operation(Kind.ALLOCATE, task, node));
  }

  /** Places the task on resources that are still being released; it runs once they are free. */
  public void pipeline(TaskState task, NodeState node) {
    requireOpen();
    session.place(task, node, TaskStatus.PIPELINED);
    operations.add(new Operation(Kind.PIPELINE, task, node));
  }

  /**
   * Evicts a task whose pod may run: it keeps using its node as releasing until the pod is gone.
   */
  public void evict(TaskState task) {
    requireOpen();
    NodeState node = task.node();
    session.markReleasing(task);
    operations.add(new Operation(Kind.EVICT, task, node));
  }

  /**
   * Takes back a placement made earlier in this cycle (no pod exists for it yet), e.g. when its job
   * is evicted whole; the place is free at once.
   */
  public void unallocate(TaskState task) {
    requireOpen();
    NodeState node = task.node();
    if (task.status() != TaskStatus.ALLOCATED) {
      throw new IllegalStateException(
          "only an allocated task can be unallocated; " + task.podName() + " is " + task.status());
    }
    session.unplace(task);
    operations.add(new Operation(Kind.UNALLOCATE, task, node));
  }

  public void commit() {
    requireOpen();
    closed = true;
    session.closed(this);
  }

  /** Where the statement stands now, to come back to with {@link #rollbackTo}. */
  public Savepoint savepoint() {
    requireOpen();
    return new Savepoint(
        operations.size(), session.releaseGeneration(), session.nodeSearch().checkpoint());
  }

  /**
   * Undoes, newest first, what was done since the savepoint; the statement stays open with what
   * came before it.
   */
  public void rollbackTo(Savepoint savepoint) {
    requireOpen();
    undoDownTo(savepoint.operations);
    session.restoreReleaseGeneration(savepoint.releaseGeneration);
    session.nodeSearch().rollback(savepoint.search);
  }

  public void discard() {
    requireOpen();
    undoDownTo(0);
    // The ledgers are exactly as they were when the statement began, so what the search knew then
    // holds again.
    session.restoreReleaseGeneration(releaseGenerationAtStart);
    session.nodeSearch().rollback(searchAtStart);
    closed = true;
    session.closed(this);
  }

  private void undoDownTo(int size) {
    for (int i = operations.size() - 1; i >= size; i--) {
      Operation operation = operations.get(i);
      switch (operation.kind()) {
        case ALLOCATE, PIPELINE -> {
          session.unplace(operation.task(), false);
          session.nodeSearch().placementUndone();
        }
        case EVICT -> session.unmarkReleasing(operation.task());
        case UNALLOCATE -> session.place(operation.task(), operation.node(), TaskStatus.ALLOCATED);
        default -> throw new IllegalStateException("unhandled operation " + operation.kind());
      }
      operations.remove(i);
    }
  }

  public boolean isClosed() {
    return closed;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("statement already committed or discarded");
    }
  }
}
