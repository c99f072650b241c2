package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.TaskState;

/** One node order's node score for a task that fits on the node; higher is better. */
public interface NodeOrderPolicy {

  double score(TaskState task, NodeState node);
}
