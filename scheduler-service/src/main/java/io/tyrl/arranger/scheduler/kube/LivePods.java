package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.model.V1alpha1TYJobStatusVictims;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pods that hold room on a node now: bound and not ended, by namespace/name.
 *
 * <p>A pod is <em>leaving</em> when it is being deleted or when a preemptor's {@code
 * status.victims} names it. A victim entry names pods by name and, since UIDs are recorded, by UID:
 * a pod recreated under a victim's name is a new pod, not a leaving one, so a victim list that
 * stays in a waiting preemptor's status never makes a job's later pods look like they are going.
 */
final class LivePods {

  /** A live pod: where it is bound, and whether its room is on its way back. */
  record LivePod(String uid, String node, boolean leaving) {}

  /**
   * A pod's namespace and name as one key. A record, not {@code namespace + "/" + name}: its hash
   * combines the hashes the informer's strings already hold, where a new string of thousands of
   * pods would be hashed afresh every cycle.
   */
  record PodKey(String namespace, String name) {}

  private final Map<PodKey, LivePod> byKey;

  private LivePods(Map<PodKey, LivePod> byKey) {
    this.byKey = byKey;
  }

  static LivePods of(List<V1Pod> pods, Collection<List<V1alpha1TYJobStatusVictims>> victimLists) {
    Set<String> victimUids = new HashSet<>();
    Set<PodKey> victimNamesWithoutUids = new HashSet<>();
    for (List<V1alpha1TYJobStatusVictims> victims : victimLists) {
      for (V1alpha1TYJobStatusVictims victim : victims) {
        if (victim.getPodUIDs() != null && !victim.getPodUIDs().isEmpty()) {
          victimUids.addAll(victim.getPodUIDs());
        } else if (victim.getPods() != null) {
          // Written before UIDs were recorded: the name is all there is.
          victim
              .getPods()
              .forEach(pod -> victimNamesWithoutUids.add(new PodKey(victim.getNamespace(), pod)));
        }
      }
    }
    Map<PodKey, LivePod> live = new HashMap<>();
    for (V1Pod pod : pods) {
      String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      if (node == null || ended(pod)) {
        continue;
      }
      PodKey key = new PodKey(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      String uid = pod.getMetadata().getUid();
      boolean leaving =
          pod.getMetadata().getDeletionTimestamp() != null
              || (uid != null && victimUids.contains(uid))
              || victimNamesWithoutUids.contains(key);
      live.put(key, new LivePod(uid, node, leaving));
    }
    return new LivePods(live);
  }

  Optional<LivePod> get(String namespace, String name) {
    return Optional.ofNullable(byKey.get(new PodKey(namespace, name)));
  }

  private static boolean ended(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }
}
