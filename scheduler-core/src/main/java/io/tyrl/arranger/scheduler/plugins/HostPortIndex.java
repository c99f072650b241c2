package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.ExistingPod;
import io.tyrl.arranger.scheduler.api.HostPort;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementListener;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * The host ports bound on each node — by pods outside the snapshot's jobs and by the tasks placed
 * on it, those of this session included — and the predicate that keeps a pod off a node where one
 * of its host ports is taken (kube-scheduler's NodePorts). Built only when some pod asks for a host
 * port.
 */
final class HostPortIndex implements PlacementListener {

  static final PredicateResult PORT_TAKEN =
      PredicateResult.rejected("node(s) didn't have free ports for the requested pod ports");

  private final List<List<HostPort>> usedByNode = new ArrayList<>();

  HostPortIndex(Session session) {
    for (NodeState node : session.nodes()) {
      List<HostPort> used = new ArrayList<>();
      for (ExistingPod pod : node.info().existingPods()) {
        used.addAll(pod.hostPorts());
      }
      usedByNode.add(used);
    }
  }

  /** True when some pending task of the session binds a host port. */
  static boolean needed(Session session) {
    return session.pendingTaskConstraints().stream()
        .anyMatch(constraints -> !constraints.hostPorts().isEmpty());
  }

  PredicateResult check(TaskState task, NodeState node) {
    List<HostPort> wanted = task.info().constraints().hostPorts();
    if (wanted.isEmpty()) {
      return PredicateResult.FITS;
    }
    for (HostPort used : usedByNode.get(node.index())) {
      for (HostPort port : wanted) {
        if (port.conflictsWith(used)) {
          return PORT_TAKEN;
        }
      }
    }
    return PredicateResult.FITS;
  }

  @Override
  public void placed(TaskState task, NodeState node) {
    usedByNode.get(node.index()).addAll(task.info().constraints().hostPorts());
  }

  @Override
  public void removed(TaskState task, NodeState node) {
    List<HostPort> used = usedByNode.get(node.index());
    for (HostPort port : task.info().constraints().hostPorts()) {
      used.remove(port);
    }
  }
}
