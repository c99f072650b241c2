package io.tyrl.arranger.scheduler.framework;

import java.util.BitSet;
import java.util.List;

/**
 * Where one task may be placed while a fence is up ({@link NodeSearch#within}): groups of nodes
 * tried in order — the best-scoring node of the first group with any feasible node wins — and, when
 * {@code thenAnywhere}, every node after them. How a gang is kept inside one topology domain, and a
 * pod near its leader first.
 */
public final class NodeFence {

  private final List<int[]> groups;
  private final boolean thenAnywhere;
  private final BitSet members = new BitSet();

  /**
   * @param groups node indices ({@link NodeState#index()}), group by group; not copied, never
   *     changed
   */
  public NodeFence(List<int[]> groups, boolean thenAnywhere) {
    this.groups = List.copyOf(groups);
    this.thenAnywhere = thenAnywhere;
    for (int[] group : groups) {
      for (int index : group) {
        members.set(index);
      }
    }
  }

  /** One group of nodes, nothing beyond it. */
  public static NodeFence of(int[] nodes) {
    return new NodeFence(List.of(nodes), false);
  }

  List<int[]> groups() {
    return groups;
  }

  /** True when the search goes on over every node once the groups found none. */
  public boolean thenAnywhere() {
    return thenAnywhere;
  }

  /** True when the node is in one of the groups. */
  public boolean contains(int nodeIndex) {
    return members.get(nodeIndex);
  }

  /** How many nodes the groups hold. */
  public int size() {
    return members.cardinality();
  }
}
