package io.tyrl.arranger.scheduler.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The order in which a cycle's actions walk queues and the jobs of each queue, as queue shares and
 * job orders stood when the cycle ended. That is where the next cycle starts (the placements of
 * this one come back in its snapshot), so unless the cluster changes in between, it is the order
 * the next cycle will consider the jobs in — what a pending job's position is counted from.
 *
 * @param queues every queue of the cycle in service order: siblings by queue order, each followed
 *     by its subtree
 * @param jobsByQueue per queue, the keys ({@code namespace/name}) of its jobs in job order; queues
 *     without jobs are absent
 */
public record ServiceOrder(List<String> queues, Map<String, List<String>> jobsByQueue) {

  /** No order known (a cycle result made without one). */
  public static final ServiceOrder NONE = new ServiceOrder(List.of(), Map.of());

  public ServiceOrder {
    queues = List.copyOf(queues);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    Objects.requireNonNull(jobsByQueue, "jobsByQueue")
        .forEach((queue, jobs) -> copy.put(queue, List.copyOf(jobs)));
    jobsByQueue = java.util.Collections.unmodifiableMap(copy);
  }

  /** The queue's jobs in job order; empty when it has none. */
  public List<String> jobsOf(String queue) {
    return jobsByQueue.getOrDefault(queue, List.of());
  }
}
