package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Maps every resource name seen in a snapshot to a dense index, so that fit checks and scores run
 * over {@code long[]} vectors instead of maps. cpu, memory, ephemeral-storage and pods always have
 * the first four indices.
 */
public final class ResourceDimensions {

  public static final int CPU = 0;
  public static final int MEMORY = 1;
  public static final int EPHEMERAL_STORAGE = 2;
  public static final int PODS = 3;

  private final String[] names;
  private final Map<String, Integer> indexByName;

  private ResourceDimensions(List<String> orderedNames) {
    this.names = orderedNames.toArray(String[]::new);
    this.indexByName = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      indexByName.put(names[i], i);
    }
  }

  /**
   * Dimensions covering the standard resources plus every name in the given amounts, extended ones
   * sorted.
   */
  public static ResourceDimensions covering(Collection<Resource> amounts) {
    TreeSet<String> extended = new TreeSet<>();
    for (Resource amount : amounts) {
      extended.addAll(amount.quantities().keySet());
    }
    List<String> ordered =
        new ArrayList<>(
            List.of(Resource.CPU, Resource.MEMORY, Resource.EPHEMERAL_STORAGE, Resource.PODS));
    extended.removeAll(ordered);
    ordered.addAll(extended);
    return new ResourceDimensions(ordered);
  }

  public int size() {
    return names.length;
  }

  public String name(int index) {
    return names[index];
  }

  /** The index of a resource, or -1 when no node or task in the snapshot mentions it. */
  public int indexOf(String name) {
    Integer index = indexByName.get(name);
    return index == null ? -1 : index;
  }

  public long[] vector(Resource amount) {
    long[] vector = new long[names.length];
    amount
        .quantities()
        .forEach(
            (name, value) -> {
              Integer index = indexByName.get(name);
              if (index == null) {
                throw new IllegalArgumentException(
                    "resource " + name + " is not a known dimension");
              }
              vector[index] = value;
            });
    return vector;
  }

  public Resource resource(long[] vector) {
    TreeMap<String, Long> map = new TreeMap<>();
    for (int i = 0; i < vector.length; i++) {
      if (vector[i] != 0) {
        map.put(names[i], vector[i]);
      }
    }
    return new Resource(map);
  }

  /**
   * Resource without the pods dimension (pod counts are a per-node limit, not a share of the
   * cluster).
   */
  public Resource resourceWithoutPods(long[] vector) {
    long saved = vector[PODS];
    vector[PODS] = 0;
    try {
      return resource(vector);
    } finally {
      vector[PODS] = saved;
    }
  }

  static void add(long[] into, long[] amount) {
    for (int i = 0; i < into.length; i++) {
      into[i] += amount[i];
    }
  }

  static void subtract(long[] from, long[] amount) {
    for (int i = 0; i < from.length; i++) {
      from[i] -= amount[i];
    }
  }
}
