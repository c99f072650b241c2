package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;

/**
 * A task inside a session: its snapshot data, its request as a dense vector, and where it stands
 * now.
 */
public final class TaskState {

  private final TaskInfo info;
  private final JobState job;
  private final long[] request;
  private final int[] requestedDimensions;
  private TaskStatus status;
  private NodeState node;
  private int[] gpuDevices = NO_DEVICES;

  private static final int[] NO_DEVICES = new int[0];

  TaskState(TaskInfo info, JobState job, long[] request) {
    this.info = info;
    this.job = job;
    this.request = request;
    int count = 0;
    for (long value : request) {
      if (value != 0) {
        count++;
      }
    }
    this.requestedDimensions = new int[count];
    int next = 0;
    for (int i = 0; i < request.length; i++) {
      if (request[i] != 0) {
        requestedDimensions[next++] = i;
      }
    }
    this.status = TaskStatus.PENDING;
  }

  public TaskInfo info() {
    return info;
  }

  public JobState job() {
    return job;
  }

  public String podName() {
    return info.podName();
  }

  /** A pod that requests nothing but its pod slot. */
  public boolean isBestEffortTask() {
    return info.isBestEffort();
  }

  public boolean isLeader() {
    return info.isLeader();
  }

  /** The request including one pod; callers must not modify it. */
  public long[] request() {
    return request;
  }

  /** Indices of the dimensions this task requests (always includes pods). */
  public int[] requestedDimensions() {
    return requestedDimensions;
  }

  public long request(int dimension) {
    return request[dimension];
  }

  public TaskStatus status() {
    return status;
  }

  public boolean isPending() {
    return status == TaskStatus.PENDING;
  }

  /**
   * True when the task holds a place it already held before this cycle (an allocation from the
   * snapshot, whose pod may run), as opposed to one given in this cycle. Only such tasks are
   * eviction candidates: evicting a placement made in the same cycle would only undo the cycle's
   * own work.
   */
  public boolean isAllocatedSinceEarlierCycle() {
    return status == TaskStatus.ALLOCATED && info.status() == TaskStatus.ALLOCATED;
  }

  /** The node holding the task, or null while it is pending. */
  public NodeState node() {
    return node;
  }

  /**
   * The node's GPU devices the task holds or claims while placed (see {@link GpuDevices}); empty
   * while pending or when it asks for no GPU. Callers must not modify it.
   */
  public int[] gpuDevices() {
    return gpuDevices;
  }

  /**
   * The device whose share the task holds when it is placed asking part of one GPU; -1 when it asks
   * none, whole GPUs, or is not placed.
   */
  public int sharedGpuDevice() {
    if (node == null || node.gpuDimension() < 0 || gpuDevices.length != 1) {
      return -1;
    }
    return GpuDevices.isFraction(request(node.gpuDimension())) ? gpuDevices[0] : -1;
  }

  void useGpuDevices(int[] devices) {
    this.gpuDevices = devices == null ? NO_DEVICES : devices;
  }

  void moveTo(TaskStatus newStatus, NodeState newNode) {
    this.status = newStatus;
    this.node = newNode;
  }

  @Override
  public String toString() {
    return info.podName() + "[" + status + (node == null ? "" : "@" + node.name()) + "]";
  }
}
