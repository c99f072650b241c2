package io.tyrl.arranger.scheduler.kube;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a cycle derived from an object, kept while the object keeps its resourceVersion: a snapshot
 * every second would otherwise decode and sum thousands of unchanged jobs, pods and nodes again.
 * What a cycle did not ask for is dropped when it {@link #sweep sweeps}, so objects that are gone do
 * not stay. Used by the scheduling loop's thread only.
 */
final class VersionedMemo<V> {

  private record Entry<V>(String version, V value, long usedInCycle) {}

  private final Map<String, Entry<V>> entries = new HashMap<>();
  private long cycle;

  /** The value derived for this key at this version; derived now if the version changed or is new. */
  V get(String key, String version, Supplier<V> derive) {
    Entry<V> entry = entries.get(key);
    if (entry != null && version != null && Objects.equals(entry.version(), version)) {
      if (entry.usedInCycle() != cycle) {
        entries.put(key, new Entry<>(entry.version(), entry.value(), cycle));
      }
      return entry.value();
    }
    V value = derive.get();
    entries.put(key, new Entry<>(version, value, cycle));
    return value;
  }

  /** Drops what this cycle did not ask for; the next cycle starts. */
  void sweep() {
    long current = cycle;
    entries.values().removeIf(entry -> entry.usedInCycle() != current);
    cycle++;
  }

  int size() {
    return entries.size();
  }
}
