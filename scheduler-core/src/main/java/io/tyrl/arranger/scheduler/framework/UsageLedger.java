package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Each queue's past usage, brought up to date before every cycle from what the cycle's snapshot
 * shows held: what the queues' jobs' placed pods request is taken as held since the last update
 * (the cycles are seconds apart; the time since a failover's last stored usage is counted the same
 * way, as the pods ran on meanwhile). A queue with children counts its subtree; a leaf queue counts
 * each namespace too. A queue gone from the snapshot is forgotten.
 *
 * <p>Not thread-safe: one owner (the scheduling loop, a simulation) advances it.
 */
public final class UsageLedger {

  private final Map<String, QueueUsage> usages = new HashMap<>();

  /** Takes {@code stored} as the queue's usage unless the ledger has the queue already. */
  public void seed(String queue, QueueUsage stored) {
    usages.putIfAbsent(queue, stored == null ? QueueUsage.NONE : stored);
  }

  /** True when the ledger has the queue's usage (advanced or seeded). */
  public boolean knows(String queue) {
    return usages.containsKey(queue);
  }

  /** Forgets the queue's history: it starts again from nothing. */
  public void reset(String queue) {
    usages.put(queue, QueueUsage.NONE);
  }

  /** Forgets every queue: what a scheduler that stops leading does, to seed again when it leads. */
  public void clear() {
    usages.clear();
  }

  /** Every queue's usage as it stands. */
  public Map<String, QueueUsage> usages() {
    return Map.copyOf(usages);
  }

  /**
   * Brings every queue of the snapshot up to {@code now} with what it holds in it.
   *
   * @return every queue's usage, as {@link #usages()}
   */
  public Map<String, QueueUsage> advance(
      Snapshot snapshot, Instant now, FairnessConfiguration fairness) {
    Map<String, QueueInfo> queues = new HashMap<>();
    for (QueueInfo queue : snapshot.queues()) {
      queues.put(queue.name(), queue);
    }
    Map<String, Map<String, Long>> heldByQueue = new HashMap<>();
    Map<String, Map<String, Map<String, Long>>> heldByNamespace = new HashMap<>();
    for (JobInfo job : snapshot.jobs()) {
      if (!queues.containsKey(job.queue()) && !TYJobDefaults.QUEUE.equals(job.queue())) {
        continue;
      }
      Map<String, Long> held = new TreeMap<>();
      for (TaskInfo task : job.tasks()) {
        if (task.status().isPlaced()) {
          task.request()
              .quantities()
              .forEach((name, amount) -> held.merge(name, amount, Long::sum));
        }
      }
      if (held.isEmpty()) {
        continue;
      }
      add(
          heldByNamespace
              .computeIfAbsent(job.queue(), q -> new HashMap<>())
              .computeIfAbsent(job.namespace(), n -> new TreeMap<>()),
          held);
      Set<String> seen = new HashSet<>();
      for (String queue = job.queue(); queue != null && seen.add(queue); ) {
        add(heldByQueue.computeIfAbsent(queue, q -> new TreeMap<>()), held);
        QueueInfo info = queues.get(queue);
        queue = info == null ? null : info.parent();
      }
    }
    Set<String> present = new HashSet<>(queues.keySet());
    present.add(TYJobDefaults.QUEUE);
    usages.keySet().retainAll(present);
    for (String queue : present) {
      QueueUsage before = usages.getOrDefault(queue, QueueUsage.NONE);
      DecayedUsage total =
          before
              .queue()
              .advance(
                  resource(heldByQueue.get(queue)), now, fairness.halfLife(), fairness.window());
      Map<String, Map<String, Long>> namespacesHeld = heldByNamespace.getOrDefault(queue, Map.of());
      Set<String> namespaces = new TreeSet<>(before.namespaces().keySet());
      namespaces.addAll(namespacesHeld.keySet());
      Map<String, DecayedUsage> byNamespace = new TreeMap<>();
      for (String namespace : namespaces) {
        Resource held = resource(namespacesHeld.get(namespace));
        DecayedUsage advanced =
            before.namespace(namespace).advance(held, now, fairness.halfLife(), fairness.window());
        if (!advanced.slots().isEmpty() || !held.quantities().isEmpty()) {
          byNamespace.put(namespace, advanced);
        }
      }
      usages.put(queue, new QueueUsage(total, byNamespace));
    }
    return usages();
  }

  private static void add(Map<String, Long> into, Map<String, Long> amount) {
    amount.forEach((name, value) -> into.merge(name, value, Long::sum));
  }

  private static Resource resource(Map<String, Long> amounts) {
    return amounts == null ? Resource.EMPTY : new Resource(new TreeMap<>(amounts));
  }
}
