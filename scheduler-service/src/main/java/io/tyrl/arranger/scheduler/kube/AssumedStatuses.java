package io.tyrl.arranger.scheduler.kube;

import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's assume cache, after kube-scheduler's assume/forget: a decision's status enters
 * here the moment it is made, so the next cycle sees it before the informer does and never places
 * twice on the same room.
 *
 * <p>An assumption is made on the job's resourceVersion as cached ({@code base}). The write is
 * guarded by that version, so once the informer shows any other version, that version holds the
 * write (or something later): the assumption is confirmed and dropped. A write that fails,
 * conflicts or is fenced is forgotten at once; one written but never echoed, or never answered,
 * within the time to live is forgotten too, with a warning, rather than masking the informer for
 * ever.
 */
public final class AssumedStatuses {

  private static final Logger log = LoggerFactory.getLogger(AssumedStatuses.class);

  /**
   * @param writtenVersion the job's resourceVersion after the write; null while the write is in
   *     flight
   */
  private record Assumption(
      String baseVersion, V1alpha1TYJobStatus status, String writtenVersion, Instant since) {}

  private final Map<String, Assumption> assumptions = new ConcurrentHashMap<>();
  private final Duration timeToLive;

  public AssumedStatuses(Duration timeToLive) {
    this.timeToLive = timeToLive;
  }

  /**
   * The job's status is assumed to become {@code status} once a write made from {@code baseVersion}
   * lands.
   */
  void assume(String key, String baseVersion, V1alpha1TYJobStatus status, Instant now) {
    assumptions.put(key, new Assumption(baseVersion, status, null, now));
  }

  /** The write landed; the job's version is now {@code writtenVersion}. */
  void written(String key, String writtenVersion, Instant now) {
    assumptions.computeIfPresent(
        key, (k, a) -> new Assumption(a.baseVersion(), a.status(), writtenVersion, now));
  }

  /** The write did not land (failed, conflicted, fenced): the job is as the informer says. */
  void forget(String key) {
    assumptions.remove(key);
  }

  boolean inFlight(String key) {
    Assumption assumption = assumptions.get(key);
    return assumption != null && assumption.writtenVersion() == null;
  }

  public int size() {
    return assumptions.size();
  }

  /**
   * The job as the scheduler must see it: the cached job, or, while an assumption about it stands,
   * the cached job with the assumed status and the version the write produced.
   */
  V1alpha1TYJob view(String key, V1alpha1TYJob cached, Instant now) {
    Assumption assumption = assumptions.get(key);
    if (assumption == null) {
      return cached;
    }
    String cachedVersion = cached.getMetadata().getResourceVersion();
    boolean informerMovedOn = !assumption.baseVersion().equals(cachedVersion);
    if (informerMovedOn && assumption.writtenVersion() != null) {
      assumptions.remove(key, assumption);
      return cached;
    }
    // A job that changed under a write still in flight stays assumed: that write will conflict and
    // be forgotten.
    if (Duration.between(assumption.since(), now).compareTo(timeToLive) > 0) {
      assumptions.remove(key, assumption);
      log.warn(
          "TYJob {}: {} not seen by the informer within {}; forgetting it",
          key,
          assumption.writtenVersion() == null
              ? "a status write that never answered was"
              : "status written as version " + assumption.writtenVersion() + " was",
          timeToLive);
      return cached;
    }
    V1alpha1TYJob assumed = shallowCopy(cached);
    assumed
        .getMetadata()
        .setResourceVersion(
            assumption.writtenVersion() == null
                ? assumption.baseVersion()
                : assumption.writtenVersion());
    assumed.setStatus(assumption.status());
    return assumed;
  }

  /** Forgets jobs that no longer exist. */
  void retainOnly(Set<String> keys) {
    assumptions.keySet().retainAll(keys);
  }

  private static V1alpha1TYJob shallowCopy(V1alpha1TYJob job) {
    var metadata =
        new io.kubernetes.client.openapi.models.V1ObjectMeta()
            .name(job.getMetadata().getName())
            .namespace(job.getMetadata().getNamespace())
            .uid(job.getMetadata().getUid())
            .resourceVersion(job.getMetadata().getResourceVersion())
            .generation(job.getMetadata().getGeneration())
            .creationTimestamp(job.getMetadata().getCreationTimestamp())
            .deletionTimestamp(job.getMetadata().getDeletionTimestamp())
            .labels(job.getMetadata().getLabels())
            .annotations(job.getMetadata().getAnnotations());
    return new V1alpha1TYJob()
        .apiVersion(job.getApiVersion())
        .kind(job.getKind())
        .metadata(metadata)
        .spec(job.getSpec())
        .status(job.getStatus());
  }
}
