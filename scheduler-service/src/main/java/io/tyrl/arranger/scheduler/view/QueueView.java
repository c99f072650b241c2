package io.tyrl.arranger.scheduler.view;

import java.util.List;

/**
 * A queue at the end of the last cycle, as its status reports it.
 *
 * @param parent null at the top level
 * @param depth 0 at the top level, so a page can indent the tree
 * @param treeProblem why its place in the tree is invalid; null when it is valid
 */
public record QueueView(
    String name,
    String parent,
    int depth,
    boolean overused,
    int pendingJobs,
    int inqueueJobs,
    int runningJobs,
    String treeProblem,
    List<ResourceBar> resources) {

  public QueueView {
    resources = List.copyOf(resources);
  }
}
