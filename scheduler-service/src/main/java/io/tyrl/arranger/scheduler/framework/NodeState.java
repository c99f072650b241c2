package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.NodeInfo;

/**
 * A node inside a session: its snapshot data and a running ledger of what is used, releasing and
 * pipelined, as dense vectors. Plugins read it; only the session and its statements change it.
 */
public final class NodeState {

  /** Stands for "no limit" when a node reports no pods capacity; far from overflow when added to. */
  static final long UNLIMITED = Long.MAX_VALUE / 4;

  private final int index;
  private final NodeInfo info;
  private final long[] allocatable;
  private final long[] used;
  private final long[] releasing;
  private final long[] pipelined;

  NodeState(int index, NodeInfo info, ResourceDimensions dimensions) {
    this.index = index;
    this.info = info;
    this.allocatable = dimensions.vector(info.allocatable());
    if (info.allocatable().get(io.tyrl.arranger.scheduler.api.Resource.PODS) == 0) {
      allocatable[ResourceDimensions.PODS] = UNLIMITED;
    }
    this.used = dimensions.vector(info.used());
    used[ResourceDimensions.PODS] = info.podCount();
    this.releasing = dimensions.vector(info.releasing());
    this.pipelined = new long[dimensions.size()];
  }

  public int index() {
    return index;
  }

  public String name() {
    return info.name();
  }

  public NodeInfo info() {
    return info;
  }

  public long allocatable(int dimension) {
    return allocatable[dimension];
  }

  public long used(int dimension) {
    return used[dimension];
  }

  /** Allocatable minus used; negative when pods the scheduler did not place over-commit the node. */
  public long idle(int dimension) {
    return allocatable[dimension] - used[dimension];
  }

  /** What will be idle once releasing pods are gone, minus what pipelined tasks already claim. */
  public long futureIdle(int dimension) {
    return allocatable[dimension] - used[dimension] + releasing[dimension] - pipelined[dimension];
  }

  public long releasing(int dimension) {
    return releasing[dimension];
  }

  /** True when every dimension the task requests fits in what is idle now. */
  public boolean fitsIdle(TaskState task) {
    long[] request = task.request();
    for (int dimension : task.requestedDimensions()) {
      if (request[dimension] > allocatable[dimension] - used[dimension]) {
        return false;
      }
    }
    return true;
  }

  /** The first requested dimension that does not fit in what is idle now, or -1. */
  public int firstInsufficientDimension(TaskState task) {
    long[] request = task.request();
    for (int dimension : task.requestedDimensions()) {
      if (request[dimension] > allocatable[dimension] - used[dimension]) {
        return dimension;
      }
    }
    return -1;
  }

  void addUsed(long[] amount) {
    ResourceDimensions.add(used, amount);
  }

  void subtractUsed(long[] amount) {
    ResourceDimensions.subtract(used, amount);
  }

  void addReleasing(long[] amount) {
    ResourceDimensions.add(releasing, amount);
  }

  void subtractReleasing(long[] amount) {
    ResourceDimensions.subtract(releasing, amount);
  }

  void addPipelined(long[] amount) {
    ResourceDimensions.add(pipelined, amount);
  }

  void subtractPipelined(long[] amount) {
    ResourceDimensions.subtract(pipelined, amount);
  }

  @Override
  public String toString() {
    return info.name();
  }
}
