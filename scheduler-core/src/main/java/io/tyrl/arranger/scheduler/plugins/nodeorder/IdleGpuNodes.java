package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.GpuDevices;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementListener;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;

/**
 * Which GPU nodes of a session have none of their GPUs used or promised — read from the nodes'
 * ledgers, then kept up to date as tasks are placed and removed — against the idle nodes the
 * workload needs (see {@link LeaderFirstPolicy}): one for each pending pod that no node in use can
 * hold (it asks for more whole GPUs than any node in use has free, when the session opens), and no
 * fewer than an optional fixed share of the GPU nodes.
 */
final class IdleGpuNodes implements PlacementListener {

  private final int gpuDimension;
  private final boolean[] idle;
  private final long reserve;
  private final java.util.Set<TaskState> needingIdleNode =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private long idleCount;
  private long pendingNeedingIdleNode;

  /**
   * The session's idle GPU nodes against what its pending pods need and a floor of {@code
   * reservePercent} of them, followed as tasks are placed and removed; null when the session has no
   * GPU resource.
   */
  static IdleGpuNodes followedIn(Session session, int gpuDimension, int reservePercent) {
    if (gpuDimension < 0) {
      return null;
    }
    IdleGpuNodes idle = new IdleGpuNodes(session.nodes(), gpuDimension, reservePercent);
    idle.countPodsNeedingIdleNodes(session);
    session.followPlacements(idle);
    return idle;
  }

  /**
   * The pending pods that only an idle node can hold: more whole GPUs than the most any GPU node in
   * use has free now.
   */
  void countPodsNeedingIdleNodes(Session session) {
    long mostFreeInUse = 0;
    for (NodeState node : session.nodes()) {
      if (node.allocatable(gpuDimension) > 0 && !idle[node.index()]) {
        long free =
            node.gpuDevices() == null
                ? node.idle(gpuDimension)
                : node.gpuDevices().wholeFreeNow() * GpuDevices.WHOLE;
        mostFreeInUse = Math.max(mostFreeInUse, free);
      }
    }
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        long gpus = task.request(gpuDimension);
        if (task.isPending() && gpus > mostFreeInUse && !GpuDevices.isFraction(gpus)) {
          needingIdleNode.add(task);
          pendingNeedingIdleNode++;
        }
      }
    }
  }

  /** True when {@code task} is a pending pod only an idle node can hold. */
  boolean needsIdleNode(TaskState task) {
    return !needingIdleNode.isEmpty() && needingIdleNode.contains(task);
  }

  /**
   * A floor of {@code reservePercent} of the session's GPU nodes, rounded up; 0 sets none (the
   * pending pods alone decide).
   */
  IdleGpuNodes(List<NodeState> nodes, int gpuDimension, int reservePercent) {
    this.gpuDimension = gpuDimension;
    this.idle = new boolean[nodes.size()];
    long gpuNodes = 0;
    for (NodeState node : nodes) {
      if (node.allocatable(gpuDimension) > 0) {
        gpuNodes++;
        refresh(node);
      }
    }
    this.reserve = (gpuNodes * reservePercent + 99) / 100;
  }

  boolean isIdle(NodeState node) {
    return idle[node.index()];
  }

  /**
   * True once idle GPU nodes are down to what the pending pods needing one ask, or to the fixed
   * floor: from then on they are kept for those pods. Never while no pod needs one and no floor is
   * set.
   */
  boolean downToReserve() {
    long needed = Math.max(reserve, pendingNeedingIdleNode);
    return needed > 0 && idleCount <= needed;
  }

  @Override
  public void placed(TaskState task, NodeState node) {
    if (needingIdleNode.contains(task)) {
      pendingNeedingIdleNode--;
    }
    refresh(node);
  }

  @Override
  public void removed(TaskState task, NodeState node) {
    if (needingIdleNode.contains(task)) {
      pendingNeedingIdleNode++;
    }
    refresh(node);
  }

  private void refresh(NodeState node) {
    boolean now =
        node.allocatable(gpuDimension) > 0
            && node.used(gpuDimension) == 0
            && node.pipelined(gpuDimension) == 0;
    if (now != idle[node.index()]) {
      idle[node.index()] = now;
      idleCount += now ? 1 : -1;
    }
  }
}
