package io.tyrl.arranger.scheduler.kube;

import java.util.IdentityHashMap;
import java.util.function.Function;

/**
 * What a cycle derived from an object, kept while the very same object is asked about: the decoded
 * TYJobs are kept per resourceVersion ({@link VersionedMemo}), so a template object that comes back
 * is one whose job has not changed. What a cycle did not ask for is dropped when it {@link #sweep
 * sweeps}. Used by the scheduling loop's thread only.
 */
final class IdentityMemo<K, V> {

  private final CycleEntries<K, V> entries = new CycleEntries<>(new IdentityHashMap<>());

  V get(K key, Function<K, V> derive) {
    return entries.get(key, kept -> true, () -> derive.apply(key));
  }

  /** Drops what this cycle did not ask for; the next cycle starts. */
  void sweep() {
    entries.sweep();
  }

  int size() {
    return entries.size();
  }
}
