package io.tyrl.arranger.scheduler.api;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one scheduling cycle looks at; immutable, so a cycle never sees the cache move under
 * it.
 *
 * @param usage each queue's past usage by queue name, as the caller keeps it (a queue missing from
 *     it has no history); the cycle only reads it
 */
public record Snapshot(
    List<NodeInfo> nodes,
    List<JobInfo> jobs,
    List<QueueInfo> queues,
    Map<String, QueueUsage> usage) {

  public Snapshot {
    nodes = List.copyOf(nodes);
    jobs = List.copyOf(jobs);
    queues = List.copyOf(queues);
    usage = usage == null ? Map.of() : Map.copyOf(usage);
    requireUnique(nodes.stream().map(NodeInfo::name).toList(), "node");
    requireUniqueJobs(jobs);
    requireUnique(queues.stream().map(QueueInfo::name).toList(), "queue");
  }

  /** A snapshot without usage history. */
  public Snapshot(List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues) {
    this(nodes, jobs, queues, Map.of());
  }

  /** The same snapshot with {@code newUsage} as its queues' past usage. */
  public Snapshot withUsage(Map<String, QueueUsage> newUsage) {
    return new Snapshot(nodes, jobs, queues, newUsage);
  }

  /** The queue's past usage; {@link QueueUsage#NONE} when it has none. */
  public QueueUsage usageOf(String queue) {
    return usage.getOrDefault(queue, QueueUsage.NONE);
  }

  /**
   * Keyed by namespace and name apart: their hashes are kept by the strings, a joined key's is not.
   */
  private static void requireUniqueJobs(List<JobInfo> jobs) {
    record JobName(String namespace, String name) {}
    Set<JobName> seen = new HashSet<>();
    for (JobInfo job : jobs) {
      if (!seen.add(new JobName(job.namespace(), job.name()))) {
        throw new IllegalArgumentException("snapshot has two jobs named " + job.key());
      }
    }
  }

  private static void requireUnique(List<String> names, String kind) {
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      if (!seen.add(name)) {
        throw new IllegalArgumentException("snapshot has two " + kind + "s named " + name);
      }
    }
  }
}
