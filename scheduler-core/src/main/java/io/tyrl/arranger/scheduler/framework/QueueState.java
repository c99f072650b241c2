package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;

/**
 * A queue inside a session: what its jobs hold and request, what it deserves (set by the plugin
 * that computes shares, e.g. proportion), and the minimum of the jobs enqueued but not yet placed.
 */
public final class QueueState {

  private final QueueInfo info;
  private final long[] allocated;
  private final long[] requested;
  private final long[] inqueue;
  private final QueueCapability capability;
  private Resource deserved = Resource.EMPTY;

  QueueState(QueueInfo info, ResourceDimensions dimensions) {
    this.info = info;
    this.allocated = new long[dimensions.size()];
    this.requested = new long[dimensions.size()];
    this.inqueue = new long[dimensions.size()];
    this.capability = new QueueCapability(this, dimensions);
  }

  public QueueInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  public long allocated(int dimension) {
    return allocated[dimension];
  }

  /** All tasks of the queue's jobs, placed or not. */
  public long requested(int dimension) {
    return requested[dimension];
  }

  /** The minimum of jobs enqueued in this cycle that have nothing placed yet. */
  public long inqueue(int dimension) {
    return inqueue[dimension];
  }

  /** The queue's hard limit, read against what it holds now. */
  public QueueCapability capability() {
    return capability;
  }

  public Resource deserved() {
    return deserved;
  }

  public void setDeserved(Resource newDeserved) {
    this.deserved = newDeserved;
  }

  void addAllocated(long[] amount) {
    ResourceDimensions.add(allocated, amount);
  }

  void subtractAllocated(long[] amount) {
    ResourceDimensions.subtract(allocated, amount);
  }

  void addRequested(long[] amount) {
    ResourceDimensions.add(requested, amount);
  }

  void addInqueue(long[] amount) {
    ResourceDimensions.add(inqueue, amount);
  }

  @Override
  public String toString() {
    return info.name();
  }
}
