package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.framework.QueueState;
import java.util.List;

/**
 * Where two queues' branches of the tree meet: {@code ours} and {@code theirs} are the ancestors
 * (or the queues themselves) that are siblings under the queue where the branches join, or the two
 * top-level queues when they are in different trees.
 */
record Branches(QueueState ours, QueueState theirs) {

  static Branches of(QueueState own, QueueState other) {
    List<QueueState> ownChain = own.selfAndAncestors();
    QueueState theirs = other;
    for (QueueState level = other; level != null; level = level.parent()) {
      int at = ownChain.indexOf(level);
      if (at > 0) {
        return new Branches(ownChain.get(at - 1), theirs);
      }
      if (at == 0) {
        // other is below own: own's branch is own itself (does not happen between leaves).
        return new Branches(own, theirs);
      }
      theirs = level;
    }
    return new Branches(ownChain.get(ownChain.size() - 1), theirs);
  }
}
