package io.tyrl.arranger.scheduler.framework;

/**
 * Told when a task takes or gives back a place on a node in a session (a statement's rollback
 * included), so that a plugin can keep per-node indexes — which pods are where — up to date. A task
 * being evicted keeps its place until its pod is gone, so marking it releasing is not a removal.
 */
public interface PlacementListener {

  void placed(TaskState task, NodeState node);

  void removed(TaskState task, NodeState node);
}
