package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementListener;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Where on each node the room is that queues hold above their shares, so that placement can keep it
 * together. Reclaim gives borrowed room back pod by pod, but a learner that needs a whole node only
 * gets one when every pod on some node is reclaimable: borrowed pods spread over every node leave
 * no such node, and a queue below its share waits for as long as the borrowers run. So a pod that
 * borrows prefers nodes that already hold borrowed pods, and a pod within its queue's share prefers
 * nodes that hold none.
 *
 * <p>A pod counts as borrowed when, as it is placed (or as the session opens, for pods already
 * running), its queue holds more than its deserved share of some resource the pod requests.
 */
final class BorrowedRoom implements PlacementListener {

  private final Function<QueueState, long[]> deserved;
  private final int size;
  private final long[][] borrowed;
  private final Set<TaskState> counted = Collections.newSetFromMap(new IdentityHashMap<>());
  private long borrowedPods;

  /**
   * Placements and removals so far: whether a pod borrows changes only with them, so the answer for
   * the pod being placed is kept while its nodes are scored.
   */
  private long placements;

  private TaskState lastTask;
  private long lastPlacements = -1;
  private boolean lastBorrows;

  BorrowedRoom(Session session, Function<QueueState, long[]> deserved) {
    this.deserved = deserved;
    this.size = session.dimensions().size();
    List<NodeState> nodes = session.nodes();
    this.borrowed = new long[nodes.size()][];
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.node() != null && task.status().isPlaced()) {
          count(task, task.node());
        }
      }
    }
  }

  /**
   * 0–100, higher for a better node: see {@link #score(TaskState, NodeState, boolean)}. While no
   * pod is borrowed, every node scores alike, and nothing is computed.
   */
  double score(TaskState task, NodeState node) {
    if (borrowedPods == 0) {
      return 0;
    }
    return score(task, node, borrows(task));
  }

  /**
   * What the score reads beyond the node (whose borrowed pods move with its change count): whether
   * any pod is borrowed, and whether this one would borrow.
   */
  long context(TaskState task) {
    return borrowedPods == 0 ? 0 : borrows(task) ? 1 : 2;
  }

  private boolean borrows(TaskState task) {
    if (task != lastTask || placements != lastPlacements) {
      lastTask = task;
      lastPlacements = placements;
      lastBorrows = above(task, true);
    }
    return lastBorrows;
  }

  /**
   * Whether the queue's allocation (plus the pod's request, {@code withPod}) is above its share of
   * some resource the pod requests.
   */
  private boolean above(TaskState task, boolean withPod) {
    QueueState queue = task.job().queue();
    long[] share = queue == null ? null : deserved.apply(queue);
    if (share == null) {
      return false;
    }
    for (int d : task.requestedDimensions()) {
      if (d != ResourceDimensions.PODS
          && task.request(d) > 0
          && queue.allocated(d) + (withPod ? task.request(d) : 0) > share[d]) {
        return true;
      }
    }
    return false;
  }

  /**
   * 0–100: for a pod that borrows, how much of the node (on average over the resources the pod
   * requests) borrowed pods hold; for any other pod, how much they do not.
   */
  private double score(TaskState task, NodeState node, boolean taskBorrows) {
    long[] onNode = borrowed[node.index()];
    double sum = 0;
    int counted = 0;
    for (int d : task.requestedDimensions()) {
      long allocatable = node.allocatable(d);
      if (d == ResourceDimensions.PODS || allocatable <= 0) {
        continue;
      }
      sum += onNode == null ? 0 : Math.min(1, (double) onNode[d] / allocatable);
      counted++;
    }
    double share = counted == 0 ? 0 : sum / counted;
    return 100 * (taskBorrows ? share : 1 - share);
  }

  @Override
  public void placed(TaskState task, NodeState node) {
    placements++;
    count(task, node);
  }

  /** Counts the pod as borrowed when its queue, already holding it, is above its share. */
  private void count(TaskState task, NodeState node) {
    if (!above(task, false) || !counted.add(task)) {
      return;
    }
    borrowedPods++;
    long[] onNode = borrowed[node.index()];
    if (onNode == null) {
      onNode = new long[size];
      borrowed[node.index()] = onNode;
    }
    for (int d = 0; d < size; d++) {
      onNode[d] += task.request(d);
    }
  }

  @Override
  public void removed(TaskState task, NodeState node) {
    placements++;
    if (!counted.remove(task)) {
      return;
    }
    borrowedPods--;
    long[] onNode = borrowed[node.index()];
    for (int d = 0; d < size; d++) {
      onNode[d] -= task.request(d);
    }
  }
}
