package io.tyrl.arranger.scheduler.kube;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What a cycle derived from an object, kept while the very same object is asked about: the decoded
 * TYJobs are kept per resourceVersion ({@link VersionedMemo}), so a template object that comes back
 * is one whose job has not changed. What a cycle did not ask for is dropped when it {@link #sweep
 * sweeps}. Used by the scheduling loop's thread only.
 */
final class IdentityMemo<K, V> {

  private record Entry<V>(V value, long usedInCycle) {}

  private final Map<K, Entry<V>> entries = new IdentityHashMap<>();
  private long cycle;

  V get(K key, Function<K, V> derive) {
    Entry<V> entry = entries.get(key);
    if (entry != null) {
      if (entry.usedInCycle() != cycle) {
        entries.put(key, new Entry<>(entry.value(), cycle));
      }
      return entry.value();
    }
    V value = derive.apply(key);
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
