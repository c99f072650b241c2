package io.tyrl.arranger.scheduler.api;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Everything one scheduling cycle looks at; immutable, so a cycle never sees the cache move under it. */
public record Snapshot(List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues) {

  public Snapshot {
    nodes = List.copyOf(nodes);
    jobs = List.copyOf(jobs);
    queues = List.copyOf(queues);
    requireUnique(nodes.stream().map(NodeInfo::name).toList(), "node");
    requireUnique(jobs.stream().map(JobInfo::key).toList(), "job");
    requireUnique(queues.stream().map(QueueInfo::name).toList(), "queue");
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
