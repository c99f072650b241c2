package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.function.Function;

/**
 * A node inside a session: its snapshot data and a running ledger of what is allocatable, used,
 * releasing and pipelined. Plugins read it; only the session and its statements change it. The
 * ledger is one flat array (four vectors side by side) so that a fit check touches one object.
 */
public final class NodeState {

  /**
   * Stands for "no limit" when a node reports no pods capacity; far from overflow when added to.
   */
  static final long UNLIMITED = Long.MAX_VALUE / 4;

  private final int index;
  private final NodeInfo info;
  private final int size;
  private final long[] ledger;
  private long ledgerChanges;
  private final int gpuDimension;
  private final GpuDevices gpuDevices;
  private NodeLedgerWatcher[] watchers = new NodeLedgerWatcher[0];

  /**
   * @param vectorOf a resource's vector in the session's dimensions; nodes alike share their
   *     amounts, so the session converts each distinct one once (the vectors are read here, never
   *     changed)
   */
  NodeState(
      int index,
      NodeInfo info,
      ResourceDimensions dimensions,
      Function<Resource, long[]> vectorOf) {
    this.index = index;
    this.info = info;
    this.size = dimensions.size();
    this.ledger = new long[4 * size];
    System.arraycopy(vectorOf.apply(info.allocatable()), 0, ledger, 0, size);
    System.arraycopy(vectorOf.apply(info.used()), 0, ledger, size, size);
    System.arraycopy(vectorOf.apply(info.releasing()), 0, ledger, 2 * size, size);
    if (ledger[ResourceDimensions.PODS] == 0) {
      ledger[ResourceDimensions.PODS] = UNLIMITED;
    }
    ledger[size + ResourceDimensions.PODS] = info.podCount();
    this.gpuDimension = dimensions.indexOf(Resource.GPU);
    this.gpuDevices =
        gpuDimension >= 0 && ledger[gpuDimension] > 0
            ? new GpuDevices(
                ledger[gpuDimension], ledger[size + gpuDimension], ledger[2 * size + gpuDimension])
            : null;
  }

  /**
   * Grows with every change of what is used, releasing or pipelined on the node, devices included:
   * a value derived from the node's state and kept under this number is still true while it stays.
   */
  public long changes() {
    return ledgerChanges + (gpuDevices == null ? 0 : gpuDevices.changes());
  }

  /** The node's GPUs as devices, or null when it has none. */
  public GpuDevices gpuDevices() {
    return gpuDevices;
  }

  /** The session's GPU dimension, or -1 when nothing in it mentions GPUs. */
  public int gpuDimension() {
    return gpuDimension;
  }

  /**
   * True when the task asks for GPUs, fits the node's GPU total, and yet no device (or not enough
   * whole devices) holds it now: the device rule, on top of the per-resource counts.
   */
  public boolean lacksGpuDevice(TaskState task) {
    long milli = gpuDimension < 0 ? 0 : task.request(gpuDimension);
    return milli > 0 && (gpuDevices == null || !gpuDevices.fitsNow(milli));
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
    return ledger[dimension];
  }

  public long used(int dimension) {
    return ledger[size + dimension];
  }

  /**
   * Allocatable minus used; negative when pods the scheduler did not place over-commit the node.
   */
  public long idle(int dimension) {
    return ledger[dimension] - ledger[size + dimension];
  }

  public long releasing(int dimension) {
    return ledger[2 * size + dimension];
  }

  /** What will be idle once releasing pods are gone, minus what pipelined tasks already claim. */
  public long futureIdle(int dimension) {
    return idle(dimension) + ledger[2 * size + dimension] - ledger[3 * size + dimension];
  }

  public long pipelined(int dimension) {
    return ledger[3 * size + dimension];
  }

  /**
   * The first requested dimension that does not fit in what is idle now, or -1. Idle that pipelined
   * tasks will need beyond what is being released is promised to them, so it does not count: a pod
   * placed there now would leave the pipelined task without room once the victims are gone.
   */
  public int firstInsufficientDimension(TaskState task) {
    long[] request = task.request();
    for (int dimension : task.requestedDimensions()) {
      long free = ledger[dimension] - ledger[size + dimension];
      long promised = ledger[3 * size + dimension] - ledger[2 * size + dimension];
      if (request[dimension] > (promised > 0 ? free - promised : free)) {
        return dimension;
      }
    }
    return lacksGpuDevice(task) ? gpuDimension : -1;
  }

  /**
   * Every requested dimension that does not fit now, as a bit set (bit d = dimension d), by the
   * rule of {@link #firstInsufficientDimension}; dimensions from 64 on are not reported, nor is a
   * GPU total that fits while no device does ({@link #lacksGpuDevice}). Used to explain a
   * rejection, not to decide it.
   */
  public long insufficientDimensions(TaskState task) {
    long[] request = task.request();
    long missing = 0;
    for (int dimension : task.requestedDimensions()) {
      long free = ledger[dimension] - ledger[size + dimension];
      long promised = ledger[3 * size + dimension] - ledger[2 * size + dimension];
      if (dimension < Long.SIZE && request[dimension] > (promised > 0 ? free - promised : free)) {
        missing |= 1L << dimension;
      }
    }
    return missing;
  }

  /**
   * True when the task fits in what will be idle once releasing pods are gone, after pipelined
   * claims.
   */
  public boolean fitsFutureIdle(TaskState task) {
    long[] request = task.request();
    for (int dimension : task.requestedDimensions()) {
      if (request[dimension] > futureIdle(dimension)) {
        return false;
      }
    }
    long milli = gpuDimension < 0 ? 0 : request[gpuDimension];
    return milli == 0 || (gpuDevices != null && gpuDevices.fitsLater(milli));
  }

  /** True when some pod on the node is being released (evicted or terminating). */
  public boolean hasReleasing() {
    for (int dimension = 0; dimension < size; dimension++) {
      if (ledger[2 * size + dimension] > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when some dimension has less idle than {@code floor} asks — then no task asking at least
   * that fits.
   */
  boolean idleBelow(long[] floor) {
    for (int dimension = 0; dimension < size; dimension++) {
      if (floor[dimension] > 0 && floor[dimension] > ledger[dimension] - ledger[size + dimension]) {
        return true;
      }
    }
    return false;
  }

  void addUsed(long[] amount) {
    add(size, amount, 1);
  }

  void subtractUsed(long[] amount) {
    add(size, amount, -1);
  }

  void addReleasing(long[] amount) {
    add(2 * size, amount, 1);
  }

  void subtractReleasing(long[] amount) {
    add(2 * size, amount, -1);
  }

  void addPipelined(long[] amount) {
    add(3 * size, amount, 1);
  }

  void subtractPipelined(long[] amount) {
    add(3 * size, amount, -1);
  }

  void watch(NodeLedgerWatcher[] watchers) {
    this.watchers = watchers;
  }

  private void add(int offset, long[] amount, int sign) {
    for (NodeLedgerWatcher watcher : watchers) {
      watcher.beforeChange(this);
    }
    ledgerChanges++;
    for (int i = 0; i < size; i++) {
      ledger[offset + i] += sign * amount[i];
    }
    for (NodeLedgerWatcher watcher : watchers) {
      watcher.afterChange(this);
    }
  }

  @Override
  public String toString() {
    return info.name();
  }
}
