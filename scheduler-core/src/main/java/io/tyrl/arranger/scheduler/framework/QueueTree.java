package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Links a session's queues into their tree by {@code parent} and marks every queue whose place in
 * it is invalid. An invalid queue blocks only its own subtree, so one bad Queue never stops the
 * others: a queue whose parent does not exist, a queue in a cycle of parents, the default queue
 * anywhere but at the top as a leaf, and a queue whose children are guaranteed more than it is (in
 * some resource) are left unlinked or marked, and the jobs under them wait with the problem as
 * their reason. A queue that has children and jobs of its own is marked too, but only its own jobs
 * wait: jobs go in leaf queues.
 */
final class QueueTree {

  private QueueTree() {}

  /**
   * @param queues every queue of the session by name, in a stable order
   */
  static void link(Map<String, QueueState> queues, ResourceDimensions dimensions) {
    for (QueueState queue : queues.values()) {
      String parentName = queue.info().parent();
      if (parentName == null) {
        continue;
      }
      if (queue.name().equals(TYJobDefaults.QUEUE)) {
        queue.markProblem(
            "the default queue stays a top-level leaf; it cannot have parent " + parentName, true);
        continue;
      }
      QueueState parent = queues.get(parentName);
      if (parent == null) {
        queue.markProblem("its parent " + parentName + " does not exist", true);
      } else if (parentName.equals(TYJobDefaults.QUEUE)) {
        queue.markProblem(
            "its parent is the default queue, which stays a top-level leaf and has no children",
            true);
      } else {
        List<String> cycle = cycleThrough(queue, queues);
        if (cycle != null) {
          queue.markProblem("its parents form a cycle: " + String.join(" → ", cycle), true);
        }
      }
    }
    for (QueueState queue : queues.values()) {
      String parentName = queue.info().parent();
      if (parentName != null && queue.problem() == null) {
        queue.linkUnder(queues.get(parentName));
      }
    }
    for (QueueState queue : queues.values()) {
      guaranteesWithinParent(queue, dimensions);
    }
  }

  /** The names around the cycle the queue's parents form, starting and ending at it; else null. */
  private static List<String> cycleThrough(QueueState start, Map<String, QueueState> queues) {
    List<String> path = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    QueueState current = start;
    while (current != null && seen.add(current.name())) {
      path.add(current.name());
      String parentName = current.info().parent();
      current = parentName == null ? null : queues.get(parentName);
      if (current == start) {
        path.add(start.name());
        return path;
      }
    }
    return null;
  }

  private static void guaranteesWithinParent(QueueState parent, ResourceDimensions dimensions) {
    if (parent.isLeaf()) {
      return;
    }
    for (int d = 0; d < dimensions.size(); d++) {
      if (d == ResourceDimensions.PODS) {
        continue;
      }
      long children = 0;
      for (QueueState child : parent.children()) {
        children += child.guarantee(d);
      }
      if (children > parent.guarantee(d)) {
        String name = dimensions.name(d);
        parent.markProblem(
            "its children are guaranteed "
                + name
                + " "
                + Resource.formatQuantity(name, children)
                + " in total, more than its own guarantee of "
                + Resource.formatQuantity(name, parent.guarantee(d)),
            true);
        return;
      }
    }
  }
}
