package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds pods of other owners that hold names a job needs. The controller's pod informer sees only
 * pods labelled with a job, so such a pod is met when a create of that name is refused (409) or
 * when the leader is about to be created; it is then read from the API server on every reconcile of
 * the job until it is gone or turns out to be the job's own. Only names met that way are read.
 */
public final class ForeignPods {

  private final CoreV1Api core;

  /** Job key → names of its pods that a pod of another owner held when last read. */
  private final Map<String, Set<String>> heldNames = new ConcurrentHashMap<>();

  public ForeignPods(CoreV1Api core) {
    this.core = core;
  }

  /** The pods of other owners still holding names of this job's pods, read again now. */
  public List<ForeignPod> recheck(JobSnapshot job) {
    Set<String> names = heldNames.get(job.key());
    if (names == null) {
      return List.of();
    }
    List<ForeignPod> still = new ArrayList<>();
    for (String name : List.copyOf(names)) {
      check(job, name).ifPresent(still::add);
    }
    return still;
  }

  /**
   * Reads the pod of that name: a {@link ForeignPod} (remembered for {@link #recheck}) when it
   * exists and this job does not control it; empty when there is none or it is the job's own.
   */
  public Optional<ForeignPod> check(JobSnapshot job, String podName) {
    V1Pod pod;
    try {
      pod = core.readNamespacedPod(podName, job.namespace()).execute();
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        release(job.key(), podName);
        return Optional.empty();
      }
      throw new PlanApplyException(
          "cannot read pod "
              + job.namespace()
              + "/"
              + podName
              + " to see whose it is: HTTP "
              + e.getCode()
              + " "
              + e.getResponseBody(),
          e);
    }
    List<V1OwnerReference> owners =
        Optional.ofNullable(pod.getMetadata().getOwnerReferences()).orElse(List.of());
    Optional<V1OwnerReference> controller =
        owners.stream().filter(owner -> Boolean.TRUE.equals(owner.getController())).findFirst();
    if (controller.filter(owner -> job.uid().equals(owner.getUid())).isPresent()) {
      release(job.key(), podName);
      return Optional.empty();
    }
    heldNames.computeIfAbsent(job.key(), key -> ConcurrentHashMap.newKeySet()).add(podName);
    return Optional.of(
        new ForeignPod(
            podName,
            controller
                .map(owner -> "owned by %s/%s".formatted(owner.getKind(), owner.getName()))
                .orElse(owners.isEmpty() ? "no owner" : "not controlled by any owner")));
  }

  /** Forgets a job that is gone. */
  public void forget(String jobKey) {
    heldNames.remove(jobKey);
  }

  private void release(String jobKey, String podName) {
    heldNames.computeIfPresent(
        jobKey,
        (key, names) -> {
          names.remove(podName);
          return names.isEmpty() ? null : names;
        });
  }
}
