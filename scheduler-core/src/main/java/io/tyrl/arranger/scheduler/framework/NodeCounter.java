package io.tyrl.arranger.scheduler.framework;

import java.util.Arrays;

/**
 * Counts per node index in an open-addressing table: scoring asks "pods of this job on node n" for
 * every candidate.
 */
final class NodeCounter {

  private int[] keys = new int[8];
  private int[] counts = new int[8];
  private int entries;

  NodeCounter() {
    Arrays.fill(keys, -1);
  }

  int get(int node) {
    int mask = keys.length - 1;
    for (int slot = mix(node) & mask; ; slot = (slot + 1) & mask) {
      int key = keys[slot];
      if (key == node) {
        return counts[slot];
      }
      if (key == -1) {
        return 0;
      }
    }
  }

  void add(int node, int delta) {
    if ((entries + 1) * 2 > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int slot = mix(node) & mask; ; slot = (slot + 1) & mask) {
      if (keys[slot] == node) {
        counts[slot] += delta;
        return;
      }
      if (keys[slot] == -1) {
        keys[slot] = node;
        counts[slot] = delta;
        entries++;
        return;
      }
    }
  }

  /** Node indices with a positive count, ascending. */
  int[] positive() {
    int[] result = new int[entries];
    int next = 0;
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != -1 && counts[slot] > 0) {
        result[next++] = keys[slot];
      }
    }
    int[] trimmed = Arrays.copyOf(result, next);
    Arrays.sort(trimmed);
    return trimmed;
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldCounts = counts;
    keys = new int[oldKeys.length * 2];
    counts = new int[oldKeys.length * 2];
    Arrays.fill(keys, -1);
    entries = 0;
    for (int slot = 0; slot < oldKeys.length; slot++) {
      if (oldKeys[slot] != -1) {
        add(oldKeys[slot], oldCounts[slot]);
      }
    }
  }

  private static int mix(int value) {
    return value * 0x9E3779B9 >>> 7 ^ value;
  }
}
