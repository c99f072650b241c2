package io.tyrl.arranger.scheduler.topology;

import java.util.Arrays;

/**
 * One domain of a topology level: the nodes that carry one value of the level's label (within an
 * enclosing domain, when it was partitioned from one).
 *
 * @param level the level's node-label key
 * @param name the label's value ({@code r7})
 * @param nodes the nodes' indices in the session, ascending; never changed
 */
public record Domain(String level, String name, int[] nodes) {

  @Override
  public boolean equals(Object other) {
    return other instanceof Domain domain
        && level.equals(domain.level)
        && name.equals(domain.name)
        && Arrays.equals(nodes, domain.nodes);
  }

  @Override
  public int hashCode() {
    return level.hashCode() * 31 + name.hashCode();
  }

  @Override
  public String toString() {
    return name + " (" + nodes.length + " nodes)";
  }
}
