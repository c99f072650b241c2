package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the pods the scheduler chose as preemption or reclaim victims for a job
 * ({@code status.victims} of the preemptor). The victims belong to other jobs, whose own reconciles
 * then see their pods gone and react as to any lost pod.
 *
 * <p>Only pods that are in the cache, carry the job-name label of the victim job the scheduler
 * named, have the UID the scheduler recorded, and are not already being deleted are deleted: a
 * stale or mistyped entry can never take a pod Arranger does not own, a pod recreated under a
 * victim's name is left alone, and a victim list that stays in status does not cause repeated calls.
 */
public final class VictimEvictor {

  private static final Logger log = LoggerFactory.getLogger(VictimEvictor.class);

  private final InformerCache cache;
  private final PlanExecutor executor;

  public VictimEvictor(InformerCache cache, PlanExecutor executor) {
    this.cache = cache;
    this.executor = executor;
  }

  /** @return false when this replica may no longer write as leader and stopped evicting */
  public boolean evict(JobSnapshot preemptor) {
    for (JobSnapshot.Victims victims : preemptor.victims()) {
      String namespace = victims.namespace().isEmpty() ? preemptor.namespace() : victims.namespace();
      for (String podName : victims.pods()) {
        Optional<V1Pod> pod = cache.pod(namespace, podName)
            .filter(candidate -> InformerCache.jobKeyOf(candidate).filter((namespace + "/" + victims.job())::equals).isPresent())
            .filter(candidate -> victims.names(podName, candidate.getMetadata().getUid()))
            .filter(candidate -> candidate.getMetadata().getDeletionTimestamp() == null);
        if (pod.isPresent()) {
          log.info("evicting pod {}/{} of TYJob {} for TYJob {}: {}", namespace, podName, victims.job(), preemptor.key(),
              victims.reason().isEmpty() ? "preempted" : victims.reason());
          if (!executor.deletePod(namespace, podName, pod, "PREEMPTED")) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
