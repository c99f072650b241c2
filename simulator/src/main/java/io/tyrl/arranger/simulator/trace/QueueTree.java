package io.tyrl.arranger.simulator.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queues of a trace, in the order given: every parent named exists and comes before its
 * children, so a queue's ancestors are always earlier in {@link #queues()}. A queue without
 * children is a leaf; jobs live in leaves only. A flat set of queues is a tree of one level.
 */
public record QueueTree(List<QueueSpec> queues) {

  public QueueTree {
    queues = List.copyOf(queues);
    Set<String> seen = new HashSet<>();
    for (QueueSpec queue : queues) {
      if (queue.parent() != null && !seen.contains(queue.parent())) {
        throw new IllegalArgumentException(
            "queue "
                + queue.name()
                + ": its parent "
                + queue.parent()
                + " must be listed before it (and exist)");
      }
      if (!seen.add(queue.name())) {
        throw new IllegalArgumentException("queue " + queue.name() + " is listed twice");
      }
    }
  }

  /** Top-level queues of these weights, in this order. */
  public static QueueTree flat(Map<String, Integer> weights) {
    List<QueueSpec> queues = new ArrayList<>();
    weights.forEach((name, weight) -> queues.add(QueueSpec.flat(name, weight)));
    return new QueueTree(queues);
  }

  public QueueSpec queue(String name) {
    for (QueueSpec queue : queues) {
      if (queue.name().equals(name)) {
        return queue;
      }
    }
    throw new IllegalArgumentException("no queue " + name);
  }

  public boolean contains(String name) {
    return queues.stream().anyMatch(queue -> queue.name().equals(name));
  }

  /** The queues no other queue names as its parent, in tree order. */
  public List<QueueSpec> leaves() {
    Set<String> parents = new HashSet<>();
    queues.forEach(queue -> parents.add(queue.parent()));
    return queues.stream().filter(queue -> !parents.contains(queue.name())).toList();
  }

  public boolean isLeaf(String name) {
    return contains(name) && queues.stream().noneMatch(queue -> name.equals(queue.parent()));
  }

  /** 1 for a top-level queue, 2 for its children, and so on. */
  public int level(String name) {
    Map<String, Integer> levels = levels();
    Integer level = levels.get(name);
    if (level == null) {
      throw new IllegalArgumentException("no queue " + name);
    }
    return level;
  }

  /** Each queue's level, in tree order. */
  public Map<String, Integer> levels() {
    Map<String, Integer> levels = new LinkedHashMap<>();
    for (QueueSpec queue : queues) {
      levels.put(queue.name(), queue.parent() == null ? 1 : levels.get(queue.parent()) + 1);
    }
    return levels;
  }

  /** The deepest level: 1 for a flat set of queues. */
  public int depth() {
    return levels().values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /**
   * True when the tree says nothing beyond weights: one level, no guarantees, no limits, every
   * priority 0.
   */
  public boolean isFlatWeightsOnly() {
    return queues.stream()
        .allMatch(
            queue ->
                queue.parent() == null
                    && queue.guarantee().isEmpty()
                    && queue.capability() == null
                    && queue.priority() == 0);
  }

  /**
   * What a scheduler without queue trees is given: the leaves at the top level with their own
   * weights and limits; no guarantees, and every priority 0. Limits of inner queues are lost.
   */
  public QueueTree flattened() {
    List<QueueSpec> flat = new ArrayList<>();
    for (QueueSpec leaf : leaves()) {
      flat.add(new QueueSpec(leaf.name(), null, leaf.weight(), 0, null, leaf.capability()));
    }
    return new QueueTree(flat);
  }

  /** Each queue's index in {@link #queues()} by name. */
  public Map<String, Integer> indexByName() {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < queues.size(); i++) {
      index.put(queues.get(i).name(), i);
    }
    return index;
  }
}
