package io.tyrl.arranger.scheduler.kube;

import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The entries of a memo that lives across cycles: an entry a cycle does not ask for is dropped when
 * the cycle {@link #sweep sweeps}, so what is gone from the cluster does not stay. Used by the
 * scheduling loop's thread only.
 */
final class CycleEntries<K, V> {

  private record Entry<V>(V value, long usedInCycle) {}

  private final Map<K, Entry<V>> entries;
  private long cycle;

  /**
   * @param empty the map to keep them in: by equality or by identity of the keys
   */
  CycleEntries(Map<K, Entry<V>> empty) {
    this.entries = empty;
  }

  /** The entry kept for the key if {@code stillValid} accepts it, else a new one derived now. */
  V get(K key, Predicate<V> stillValid, Supplier<V> derive) {
    Entry<V> entry = entries.get(key);
    if (entry != null && stillValid.test(entry.value())) {
      if (entry.usedInCycle() != cycle) {
        entries.put(key, new Entry<>(entry.value(), cycle));
      }
      return entry.value();
    }
    V value = derive.get();
    entries.put(key, new Entry<>(value, cycle));
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
