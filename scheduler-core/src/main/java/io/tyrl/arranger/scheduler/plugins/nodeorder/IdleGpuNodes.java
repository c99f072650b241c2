package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementListener;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;

/**
 * Which GPU nodes of a session have none of their GPUs used or promised — read from the nodes'
 * ledgers, then kept up to date as tasks are placed and removed — against a reserve: the share of
 * the GPU nodes that LeaderFirst keeps idle for requests that need a whole node (see {@link
 * LeaderFirstPolicy}).
 */
final class IdleGpuNodes implements PlacementListener {

  private final int gpuDimension;
  private final boolean[] idle;
  private final long reserve;
  private long idleCount;

  /**
   * The session's idle GPU nodes against a reserve of {@code reservePercent} of them, followed as
   * tasks are placed and removed; null when no reserve is kept or the session has no GPU resource.
   */
  static IdleGpuNodes followedIn(Session session, int gpuDimension, int reservePercent) {
    if (reservePercent == 0 || gpuDimension < 0) {
      return null;
    }
    IdleGpuNodes idle = new IdleGpuNodes(session.nodes(), gpuDimension, reservePercent);
    session.followPlacements(idle);
    return idle;
  }

  /** {@code reservePercent} of the session's GPU nodes, rounded up; 0 keeps no node back. */
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
   * True once idle GPU nodes are down to the reserve: from then on they are kept for whole-node
   * requests.
   */
  boolean downToReserve() {
    return idleCount <= reserve;
  }

  @Override
  public void placed(TaskState task, NodeState node) {
    refresh(node);
  }

  @Override
  public void removed(TaskState task, NodeState node) {
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
