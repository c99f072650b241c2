package io.tyrl.arranger.scheduler.api;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything one scheduling cycle looks at; immutable, so a cycle never sees the cache move under
 * it.
 */
public record Snapshot(List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues) {

  public Snapshot {
    nodes = List.copyOf(nodes);
    jobs = List.copyOf(jobs);
    queues = List.copyOf(queues);
    requireUnique(nodes.stream().map(NodeInfo::name).toList(), "node");
    requireUniqueJobs(jobs);
    requireUnique(queues.stream().map(QueueInfo::name).toList(), "queue");
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
