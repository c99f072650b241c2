package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.VictimEntry;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.kube.StatusPatchException;
import io.tyrl.arranger.kube.StatusPatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the pods the scheduler chose as preemption or reclaim victims for a job ({@code
 * status.victims} of the preemptor). The victims belong to other jobs; before their pods are
 * deleted, the victim job gets {@code status.eviction} (reason Preempted or Reclaimed, the message
 * naming the preemptor, the pods), so that its own reconcile reschedules it without counting a
 * restart even when the pods are gone by the time it looks. The note is written before the deletes
 * and only when the victim does not carry it already.
 *
 * <p>Only pods that are in the cache, carry the job-name label of the victim job the scheduler
 * named, have the UID the scheduler recorded, and are not already being deleted are deleted: a
 * stale or mistyped entry can never take a pod Arranger does not own, a pod recreated under a
 * victim's name is left alone, and a victim list that stays in status does not cause repeated
 * calls.
 */
public final class VictimEvictor {

  private static final Logger log = LoggerFactory.getLogger(VictimEvictor.class);

  private final InformerCache cache;
  private final PlanExecutor executor;
  private final StatusPatcher statusPatcher;

  public VictimEvictor(InformerCache cache, PlanExecutor executor, StatusPatcher statusPatcher) {
    this.cache = cache;
    this.executor = executor;
    this.statusPatcher = statusPatcher;
  }

  /**
   * @return false when this replica may no longer write as leader and stopped evicting
   */
  public boolean evict(JobSnapshot preemptor) {
    for (VictimEntry victims : preemptor.victims()) {
      String namespace =
          victims.namespace().isEmpty() ? preemptor.namespace() : victims.namespace();
      List<V1Pod> doomed = new ArrayList<>();
      for (String podName : victims.pods()) {
        cache
            .pod(namespace, podName)
            .filter(
                candidate ->
                    InformerCache.jobKeyOf(candidate)
                        .filter((namespace + "/" + victims.job())::equals)
                        .isPresent())
            .filter(candidate -> victims.names(podName, candidate.getMetadata().getUid()))
            .filter(candidate -> candidate.getMetadata().getDeletionTimestamp() == null)
            .ifPresent(doomed::add);
      }
      if (doomed.isEmpty()) {
        continue;
      }
      EvictionNotice notice =
          new EvictionNotice(
              victims.evictionCause(),
              victims.reason().isEmpty() ? "evicted for " + preemptor.key() : victims.reason(),
              victims.pods());
      if (!markVictim(namespace, victims.job(), notice)) {
        return false;
      }
      for (V1Pod pod : doomed) {
        String podName = pod.getMetadata().getName();
        log.info(
            "evicting pod {}/{} of TYJob {} for TYJob {}: {}",
            namespace,
            podName,
            victims.job(),
            preemptor.key(),
            notice.message());
        if (!executor.deletePod(
            namespace, podName, Optional.of(pod), notice.reason().toUpperCase())) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * @return false when this replica may no longer write as leader
   */
  private boolean markVictim(String namespace, String job, EvictionNotice notice) {
    Optional<EvictionNotice> current =
        cache
            .job(namespace + "/" + job)
            .map(raw -> TYJobDecoder.object(raw.getRaw(), "status"))
            .map(status -> TYJobDecoder.object(status, "eviction"))
            .flatMap(JobViewMapper::eviction);
    if (current.filter(notice::equals).isPresent()) {
      return true;
    }
    JsonObject status = new JsonObject();
    status.add("eviction", StatusPatchDocument.eviction(notice));
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    StatusPatcher.Target target =
        new StatusPatcher.Target(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.TYJOBS,
            namespace,
            job);
    try {
      StatusPatcher.Result result = statusPatcher.patch(target, patch.toString());
      // A victim job that is gone leaves pods to be deleted all the same.
      return !(result instanceof StatusPatcher.Result.Fenced);
    } catch (StatusPatchException e) {
      throw new PlanApplyException(
          "cannot note the eviction on TYJob " + namespace + "/" + job + ": " + e.getMessage(), e);
    }
  }
}
