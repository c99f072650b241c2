package io.tyrl.arranger.scheduler.kube;

import java.util.HashMap;
import java.util.function.Supplier;

/**
 * What a cycle derived from an object, kept while the object keeps its resourceVersion: a snapshot
 * every second would otherwise decode and sum thousands of unchanged jobs, pods and nodes again.
 * What a cycle did not ask for is dropped when it {@link #sweep sweeps}, so objects that are gone
 * do not stay. Used by the scheduling loop's thread only.
 */
final class VersionedMemo<V> {

  private record Versioned<V>(String version, V value) {}

  private final CycleEntries<String, Versioned<V>> entries = new CycleEntries<>(new HashMap<>());

  /**
   * The value derived for this key at this version; derived now if the version changed or is new.
   */
  V get(String key, String version, Supplier<V> derive) {
    return entries
        .get(
            key,
            kept -> version != null && version.equals(kept.version()),
            () -> new Versioned<>(version, derive.get()))
        .value();
  }

  /** Drops what this cycle did not ask for; the next cycle starts. */
  void sweep() {
    entries.sweep();
  }

  int size() {
    return entries.size();
  }
}
