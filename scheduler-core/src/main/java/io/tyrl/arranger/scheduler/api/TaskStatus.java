package io.tyrl.arranger.scheduler.api;

/**
 * Where a task stands. PENDING has no node; ALLOCATED holds one; PIPELINED waits for resources
 * being released on its node; RELEASING is being evicted and still uses its node until gone.
 *
 * <p>In a snapshot the service layer sends PENDING, ALLOCATED (the job's allocations in its status)
 * and RELEASING (a pod of the job being deleted, e.g. a victim named by an earlier cycle).
 * PIPELINED is what preemption gives within a cycle; it is never reported as an allocation.
 */
public enum TaskStatus {
  PENDING,
  ALLOCATED,
  PIPELINED,
  RELEASING;

  /** True when the task holds (or will hold) a place on a node. */
  public boolean isPlaced() {
    return this == ALLOCATED || this == PIPELINED;
  }
}
