package io.tyrl.arranger.testing.chaos;

import io.tyrl.arranger.testing.chaos.ClusterSnapshot.JobState;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Remembers, across snapshots, where every pod was allocated, and finds pods allocated twice:
 *
 * <ul>
 *   <li>a pod name whose allocation moved to another node while the allocation stood all along and
 *       its pod had not failed (a placement given back, or a pod refused by its kubelet, may be
 *       placed anew: that is no double allocation);
 *   <li>a pod bound to one node while its live job's allocation names another (the capacity was
 *       charged on one node and is used on the other).
 * </ul>
 *
 * Not thread-safe; one sampler feeds it.
 */
public final class PlacementHistory {

  private final Map<String, String> allocatedNode = new HashMap<>();
  private final Set<String> doublyAllocated = new LinkedHashSet<>();

  /**
   * @return the violations first seen in this snapshot
   */
  public List<String> observe(ClusterSnapshot snapshot) {
    List<String> found = new ArrayList<>();
    Map<String, PodState> pods = new HashMap<>();
    snapshot.pods().forEach(pod -> pods.put(pod.key(), pod));
    Set<String> allocatedNow = new java.util.HashSet<>();
    for (JobState job : snapshot.jobs()) {
      for (Map.Entry<String, String> allocation : job.allocations().entrySet()) {
        String key = job.namespace() + "/" + allocation.getKey() + "@" + job.uid();
        String podKey = job.namespace() + "/" + allocation.getKey();
        String node = allocation.getValue();
        allocatedNow.add(key);
        PodState pod = pods.get(podKey);
        if (pod != null && "Failed".equals(pod.phase())) {
          // A failed pod's placement may be given back and taken anew elsewhere.
          allocatedNode.remove(key);
          continue;
        }
        String before = allocatedNode.put(key, node);
        if (before != null && !before.equals(node)) {
          report(
              found,
              podKey,
              "pod "
                  + podKey
                  + " of job "
                  + job.name()
                  + " allocated to "
                  + before
                  + " and then to "
                  + node
                  + " while its allocation stood");
        }
        if (!job.ended()
            && pod != null
            && pod.node() != null
            && !pod.node().equals(node)
            && !pod.finished()
            && owned(pod, job)) {
          report(
              found,
              podKey,
              "pod "
                  + podKey
                  + " runs on "
                  + pod.node()
                  + " while job "
                  + job.name()
                  + " has it allocated to "
                  + node);
        }
      }
    }
    // An allocation that is gone was given back; a later one may name any node.
    allocatedNode.keySet().retainAll(allocatedNow);
    return found;
  }

  private static boolean owned(PodState pod, JobState job) {
    return pod.owner() == null || pod.owner().equals(job.uid()) || pod.owner().equals(job.name());
  }

  private void report(List<String> found, String podKey, String message) {
    if (doublyAllocated.add(podKey)) {
      found.add(message);
    }
  }

  /** Pods (namespace/name) ever found allocated twice. */
  public int doubleAllocations() {
    return doublyAllocated.size();
  }
}
