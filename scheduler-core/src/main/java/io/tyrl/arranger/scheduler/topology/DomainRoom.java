package io.tyrl.arranger.scheduler.topology;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.framework.NodeLedgerWatcher;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The free room of every domain {@link Domains} lists, kept true as the session places, pipelines
 * and evicts pods (it watches the nodes' ledgers), so that weighing every rack of the cluster for a
 * gang costs a sum per rack, not a pass over the cluster's nodes for each gang. A node's free room
 * is what will be idle once releasing pods are gone, after pipelined claims, never below zero.
 *
 * <p>A gang counts only the nodes that admit some pod of it: which nodes of a domain do not is the
 * same for every job with the same constraints, so it is found once per session for each set of
 * constraints and domain ({@link #excluded}), and taken off the domain's sum.
 */
public final class DomainRoom implements NodeLedgerWatcher {

  private final List<NodeState> nodes;
  private final int dimensions;
  private final Level[] levels;
  private final Map<Domain, Slot> slots = new IdentityHashMap<>();

  /** By domain (identity), then by the constraints of the job's pods. */
  private final Map<Domain, Map<List<PlacementConstraints>, Excluded>> excluded =
      new IdentityHashMap<>();

  /** The domains of one level: the domain ordinal of each node (-1 outside all). */
  private record Level(int[] ordinalOfNode, long[] free) {}

  /** Where a domain's sums are: its level, and its ordinal there. */
  private record Slot(Level level, int ordinal) {}

  /**
   * The nodes of a domain that admit no pod of a set of constraints (unready and cordoned nodes
   * among them), and the allocatable of those that do.
   *
   * @param nodes node indices, ascending; never changed
   * @param admittedAllocatable per session dimension; never changed
   */
  public record Excluded(int[] nodes, long[] admittedAllocatable) {}

  private DomainRoom(Session session) {
    this.nodes = session.nodes();
    this.dimensions = session.dimensions().size();
    Domains domains = Domains.of(session);
    List<String> keys = domains.levels().keys();
    this.levels = new Level[keys.size()];
    for (int l = 0; l < levels.length; l++) {
      List<Domain> all = domains.all(keys.get(l));
      int[] ordinalOfNode = new int[nodes.size()];
      Arrays.fill(ordinalOfNode, -1);
      Level level = new Level(ordinalOfNode, new long[all.size() * dimensions]);
      for (int ordinal = 0; ordinal < all.size(); ordinal++) {
        slots.put(all.get(ordinal), new Slot(level, ordinal));
        for (int index : all.get(ordinal).nodes()) {
          ordinalOfNode[index] = ordinal;
        }
      }
      levels[l] = level;
    }
    for (NodeState node : nodes) {
      afterChange(node);
    }
    session.watchNodeLedgers(this);
  }

  /** The session's domain room, built (and watching) the first time it is asked for. */
  public static DomainRoom of(Session session) {
    return session.extension(DomainRoom.class, DomainRoom::new);
  }

  /**
   * The free room of every node of the domain summed, per session dimension: the kept sum for a
   * domain {@link Domains#all} lists, counted node by node for any other (one partitioned from a
   * wider domain across the nesting of the levels).
   */
  public long[] free(Domain domain) {
    Slot slot = slots.get(domain);
    if (slot == null) {
      long[] free = new long[dimensions];
      for (int index : domain.nodes()) {
        for (int d = 0; d < dimensions; d++) {
          free[d] += freeOn(nodes.get(index), d);
        }
      }
      return free;
    }
    int from = slot.ordinal() * dimensions;
    return Arrays.copyOfRange(slot.level().free(), from, from + dimensions);
  }

  /**
   * The nodes of the domain that {@code admits} rejects, for jobs with these constraints: for a
   * domain {@link Domains#all} lists, found the first time and kept, so {@code admits} must depend
   * only on the constraints and on what does not change in a session (labels, taints, conditions).
   */
  public Excluded excluded(
      List<PlacementConstraints> constraints, Domain domain, Predicate<NodeState> admits) {
    if (!slots.containsKey(domain)) {
      return findExcluded(domain, admits);
    }
    return excluded
        .computeIfAbsent(domain, d -> new HashMap<>())
        .computeIfAbsent(constraints, c -> findExcluded(domain, admits));
  }

  private Excluded findExcluded(Domain domain, Predicate<NodeState> admits) {
    int[] rejected = new int[domain.nodes().length];
    int count = 0;
    long[] allocatable = new long[dimensions];
    for (int index : domain.nodes()) {
      NodeState node = nodes.get(index);
      if (admits.test(node)) {
        for (int d = 0; d < dimensions; d++) {
          allocatable[d] += node.allocatable(d);
        }
      } else {
        rejected[count++] = index;
      }
    }
    return new Excluded(Arrays.copyOf(rejected, count), allocatable);
  }

  /** A node's free room in one dimension, as the sums count it. */
  public static long freeOn(NodeState node, int dimension) {
    return Math.max(0, node.futureIdle(dimension));
  }

  @Override
  public void beforeChange(NodeState node) {
    count(node, -1);
  }

  @Override
  public void afterChange(NodeState node) {
    count(node, 1);
  }

  private void count(NodeState node, int sign) {
    for (Level level : levels) {
      int ordinal = level.ordinalOfNode()[node.index()];
      if (ordinal >= 0) {
        int from = ordinal * dimensions;
        for (int d = 0; d < dimensions; d++) {
          level.free()[from + d] += sign * freeOn(node, d);
        }
      }
    }
  }
}
