package io.tyrl.arranger.scheduler.api;

/**
 * Where a task stands. PENDING has no node; ALLOCATED holds one; PIPELINED waits for resources
 * being released on its node; RELEASING is being evicted and still uses its node until gone.
 */
public enum TaskStatus {
  PENDING, ALLOCATED, PIPELINED, RELEASING;

  /** True when the task holds (or will hold) a place on a node. */
  public boolean isPlaced() {
    return this == ALLOCATED || this == PIPELINED;
  }
}
