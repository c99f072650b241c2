package io.tyrl.arranger.simulator.metrics;

import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The fair share of GPUs of every queue of a tree, computed by the simulator itself from the
 * queues' guarantees, weights, priorities and limits and their demand, so that a run is measured
 * against the rule rather than against what the scheduler under test believes. Whole GPUs
 * throughout:
 *
 * <ol>
 *   <li>a queue's <b>demand</b> is its jobs' (a leaf) or its children's demands summed (an inner
 *       queue), then capped at its capability;
 *   <li>the top-level queues share the cluster's GPUs, the children of a queue share that queue's
 *       fair share, level by level;
 *   <li>among siblings, each first gets min(guarantee, demand); should those exceed what the
 *       siblings share, that is split instead by weighted water-filling, each capped at its
 *       min(guarantee, demand);
 *   <li>what is left goes to siblings above their guarantees by priority, highest first: the
 *       siblings of one priority split it by weighted water-filling, each capped at its demand less
 *       what it already has; what they cannot take goes to the next priority;
 *   <li>weighted water-filling in whole units: each sibling gets the floor of its exact continuous
 *       share, and the units the floors leave go one each to the siblings with the largest
 *       fractional parts, ties to the one earlier in the tree.
 * </ol>
 *
 * A queue's share never exceeds its demand, hence never its capability, nor any ancestor's.
 */
public final class TreeFairShare {

  private final List<QueueSpec> queues;
  private final int[] parent;
  private final int[][] children;
  private final int[] roots;
  private final int[] leaves;

  public TreeFairShare(QueueTree tree) {
    this.queues = tree.queues();
    Map<String, Integer> index = tree.indexByName();
    int n = queues.size();
    parent = new int[n];
    List<List<Integer>> kids = new ArrayList<>();
    List<Integer> top = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      kids.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      String parentName = queues.get(i).parent();
      parent[i] = parentName == null ? -1 : index.get(parentName);
      if (parent[i] < 0) {
        top.add(i);
      } else {
        kids.get(parent[i]).add(i);
      }
    }
    children = new int[n][];
    List<Integer> leafList = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      children[i] = kids.get(i).stream().mapToInt(Integer::intValue).toArray();
      if (children[i].length == 0) {
        leafList.add(i);
      }
    }
    roots = top.stream().mapToInt(Integer::intValue).toArray();
    leaves = leafList.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The tree's index of each leaf, in the order of {@link QueueTree#leaves()}. */
  public int[] leafIndexes() {
    return leaves.clone();
  }

  /**
   * Every queue's demand in tree order from the leaves' demands (in {@link QueueTree#leaves()}
   * order): an inner queue's is its leaves' summed, with no limit applied.
   */
  public long[] subtreeSums(long[] leafValues) {
    long[] sums = new long[queues.size()];
    for (int l = 0; l < leaves.length; l++) {
      sums[leaves[l]] = leafValues[l];
    }
    // Parents come before their children in the tree's order: children are summed first.
    for (int i = queues.size() - 1; i >= 0; i--) {
      if (parent[i] >= 0) {
        sums[parent[i]] += sums[i];
      }
    }
    return sums;
  }

  /**
   * Every queue's fair share of {@code capacity} GPUs, in tree order, given the leaves' GPU demands
   * in {@link QueueTree#leaves()} order.
   */
  public long[] shares(long capacity, long[] leafDemand) {
    if (leafDemand.length != leaves.length) {
      throw new IllegalArgumentException(
          "expected the demand of " + leaves.length + " leaves, got " + leafDemand.length);
    }
    int n = queues.size();
    long[] demand = new long[n];
    for (int l = 0; l < leaves.length; l++) {
      demand[leaves[l]] = leafDemand[l];
    }
    for (int i = n - 1; i >= 0; i--) {
      demand[i] = Math.min(demand[i], queues.get(i).capabilityGpu());
      if (parent[i] >= 0) {
        demand[parent[i]] += demand[i];
      }
    }
    long[] share = new long[n];
    split(capacity, roots, demand, share);
    for (int i = 0; i < n; i++) {
      if (children[i].length > 0) {
        split(share[i], children[i], demand, share);
      }
    }
    return share;
  }

  /** Splits {@code available} among {@code siblings} by the rule, writing into {@code share}. */
  private void split(long available, int[] siblings, long[] demand, long[] share) {
    int k = siblings.length;
    long[] guaranteed = new long[k];
    int[] weights = new int[k];
    long inQuota = 0;
    for (int s = 0; s < k; s++) {
      QueueSpec queue = queues.get(siblings[s]);
      guaranteed[s] = Math.min(queue.guaranteeGpu(), demand[siblings[s]]);
      weights[s] = queue.weight();
      inQuota += guaranteed[s];
    }
    if (inQuota >= available) {
      long[] given = waterFill(available, guaranteed, weights);
      for (int s = 0; s < k; s++) {
        share[siblings[s]] = given[s];
      }
      return;
    }
    long left = available - inQuota;
    long[] given = guaranteed.clone();
    TreeSet<Integer> priorities = new TreeSet<>();
    for (int sibling : siblings) {
      priorities.add(queues.get(sibling).priority());
    }
    for (int priority : priorities.descendingSet()) {
      long[] room = new long[k];
      for (int s = 0; s < k; s++) {
        room[s] =
            queues.get(siblings[s]).priority() == priority
                ? demand[siblings[s]] - guaranteed[s]
                : 0;
      }
      long[] extra = waterFill(left, room, weights);
      for (int s = 0; s < k; s++) {
        given[s] += extra[s];
        left -= extra[s];
      }
    }
    for (int s = 0; s < k; s++) {
      share[siblings[s]] = given[s];
    }
  }

  /**
   * Weighted water-filling of {@code amount} whole units, each taker capped at {@code caps} (a
   * taker with cap 0 takes nothing): the floors of the exact continuous shares, then one more unit
   * each to the largest fractional parts (ties to the lower index) until the amount, or every cap,
   * is reached.
   */
  static long[] waterFill(long amount, long[] caps, int[] weights) {
    int k = caps.length;
    long[] given = new long[k];
    boolean[] settled = new boolean[k];
    long remaining = amount;
    long totalCaps = 0;
    for (int i = 0; i < k; i++) {
      settled[i] = caps[i] <= 0;
      totalCaps += Math.max(0, caps[i]);
    }
    long target = Math.min(amount, totalCaps);
    boolean cappedOne = true;
    while (cappedOne) {
      cappedOne = false;
      long weight = 0;
      for (int i = 0; i < k; i++) {
        weight += settled[i] ? 0 : weights[i];
      }
      if (weight == 0) {
        break;
      }
      for (int i = 0; i < k; i++) {
        // cap <= remaining × w / W, exactly, in integers.
        if (!settled[i] && caps[i] * weight <= remaining * weights[i]) {
          given[i] = caps[i];
          settled[i] = true;
          cappedOne = true;
        }
      }
      if (cappedOne) {
        remaining = amount;
        for (int i = 0; i < k; i++) {
          remaining -= settled[i] ? given[i] : 0;
        }
        continue;
      }
      long[] fraction = new long[k];
      long handed = 0;
      for (int i = 0; i < k; i++) {
        if (!settled[i]) {
          given[i] = remaining * weights[i] / weight;
          fraction[i] = remaining * weights[i] % weight;
        }
        handed += given[i];
      }
      Integer[] order = new Integer[k];
      for (int i = 0; i < k; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(fraction[b], fraction[a]));
      for (int r = 0; handed < target && r < k; r++) {
        int i = order[r];
        if (!settled[i] && fraction[i] > 0) {
          given[i]++;
          handed++;
        }
      }
    }
    return given;
  }
}
