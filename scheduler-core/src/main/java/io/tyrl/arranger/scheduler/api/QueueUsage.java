package io.tyrl.arranger.scheduler.api;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A queue's past usage: its own (its subtree's, for a queue with children) and, for a leaf queue,
 * each namespace's whose jobs ran in it.
 */
public record QueueUsage(DecayedUsage queue, SortedMap<String, DecayedUsage> namespaces) {

  /** No history. */
  public static final QueueUsage NONE = new QueueUsage(DecayedUsage.NONE, new TreeMap<>());

  public QueueUsage {
    Objects.requireNonNull(queue, "queue");
    namespaces = Collections.unmodifiableSortedMap(new TreeMap<>(namespaces));
  }

  public QueueUsage(DecayedUsage queue, Map<String, DecayedUsage> namespaces) {
    this(queue, new TreeMap<>(namespaces));
  }

  /** The namespace's usage in this queue; {@link DecayedUsage#NONE} when it has none. */
  public DecayedUsage namespace(String namespace) {
    return namespaces.getOrDefault(namespace, DecayedUsage.NONE);
  }
}
