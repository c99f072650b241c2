package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.controller.kube.ControllerMetrics.ReconcileResult;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.crd.contract.Stage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one TYJob: read it and its pods from the informer cache, plan with the {@link
 * LifecyclePlanner}, apply the plan. It never throws: every failure becomes a {@link
 * ReconcileResult} that the work queue turns into a retry with backoff, so one bad job never stops
 * the others.
 */
public final class TYJobReconciler {

  /** How soon a job whose cache lags behind the controller's own write is looked at again. */
  static final Duration CACHE_RECHECK = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(TYJobReconciler.class);

  private final InformerCache cache;
  private final JobViewMapper jobMapper;
  private final PodViewMapper podMapper;
  private final LifecyclePlanner planner;
  private final PlanExecutor executor;
  private final VictimEvictor victimEvictor;
  private final ForeignPods foreignPods;
  private final ControllerMetrics metrics;
  private final Clock clock;

  /**
   * Job key → the resourceVersion this controller last patched from. Until the cache holds a newer
   * version, planning would only repeat the last plan and run into a 409.
   */
  private final Map<String, String> supersededVersions = new ConcurrentHashMap<>();

  /**
   * Job key → when its held-back status reports are to be written (see {@link #statusBatchPeriod}).
   */
  private final Map<String, Instant> reportsDue = new ConcurrentHashMap<>();

  private final Duration statusBatchPeriod;
  private final PodExpectations expectations;

  /**
   * @param statusBatchPeriod how long a status write that only reports on the pods and the spec
   *     (the leader's address and phase, created and ready counts, allocated nodes) may be held
   *     back, so that the reports of several pod changes go out in one write, as kube's Job
   *     controller batches its syncs; a lifecycle fact (a stage, a restart, a condition) is never
   *     held back and carries the reports with it. Zero writes every report at once.
   */
  public TYJobReconciler(
      InformerCache cache,
      JobViewMapper jobMapper,
      PodViewMapper podMapper,
      LifecyclePlanner planner,
      PlanExecutor executor,
      VictimEvictor victimEvictor,
      ForeignPods foreignPods,
      ControllerMetrics metrics,
      Clock clock,
      Duration statusBatchPeriod,
      PodExpectations expectations) {
    this.statusBatchPeriod = statusBatchPeriod;
    this.expectations = expectations;
    this.foreignPods = foreignPods;
    this.cache = cache;
    this.jobMapper = jobMapper;
    this.podMapper = podMapper;
    this.planner = planner;
    this.executor = executor;
    this.victimEvictor = victimEvictor;
    this.metrics = metrics;
    this.clock = clock;
  }

  public ReconcileResult reconcile(String key) {
    long started = System.nanoTime();
    ReconcileResult result;
    try {
      result = reconcileCached(key);
    } catch (PlanApplyException e) {
      log.warn("reconcile of TYJob {} failed, retrying with backoff: {}", key, e.getMessage());
      result = ReconcileResult.ERROR;
    } catch (RuntimeException e) {
      log.error("reconcile of TYJob {} failed unexpectedly, retrying with backoff", key, e);
      result = ReconcileResult.ERROR;
    }
    metrics.reconciled(result, Duration.ofNanos(System.nanoTime() - started));
    return result;
  }

  private ReconcileResult reconcileCached(String key) {
    DynamicKubernetesObject raw = cache.job(key).orElse(null);
    if (raw == null) {
      supersededVersions.remove(key);
      reportsDue.remove(key);
      expectations.forget(key);
      foreignPods.forget(key);
      return ReconcileResult.GONE;
    }
    String resourceVersion = InformerCache.metadata(raw, "resourceVersion").orElse(null);
    if (Objects.equals(supersededVersions.get(key), resourceVersion)) {
      return ReconcileResult.STALE_CACHE;
    }
    supersededVersions.remove(key);
    Map<String, V1Pod> pods = ownedPods(key, InformerCache.metadata(raw, "uid").orElse(null));
    if (!expectations.satisfied(key, pods.keySet())) {
      // Pods this controller created are not in the cache yet; their watch events bring the job
      // back.
      return ReconcileResult.STALE_CACHE;
    }

    JobSnapshot job = jobMapper.map(raw.getRaw());
    if (!victimEvictor.evict(job)) {
      return ReconcileResult.FENCED;
    }
    List<PodView> podViews = pods.values().stream().map(podMapper::map).toList();
    Instant now = clock.instant();
    List<ForeignPod> foreign = foreignPods.recheck(job);
    // A name held by another owner is met by the create's 409 (the leader is created before the
    // status
    // that announces it, see PlanExecutor) and read again here on every reconcile until it is free.
    Plan plan = planner.plan(job.view(), podViews, foreign, now);
    // An ended job waits for nothing: a name held by another pod no longer matters to it.
    boolean waits = !plan.stage().isTerminal() && (!foreign.isEmpty() || plan.lookAgainLater());
    if (plan.stage().isTerminal()) {
      foreignPods.forget(key);
    }
    boolean heldBack = false;
    if (plan.statusPatch().isEmpty()) {
      reportsDue.remove(key);
    } else if (plan.statusWriteOnlyReports() && !statusBatchPeriod.isZero()) {
      Instant due = reportsDue.computeIfAbsent(key, k -> now.plus(statusBatchPeriod));
      if (now.isBefore(due)) {
        plan = plan.withoutStatusWrite();
        heldBack = true;
      }
    }
    // Held-back reports are looked at again when due; that also covers waiting, with a shorter
    // delay.
    ReconcileResult done =
        heldBack
            ? ReconcileResult.BATCHED
            : waits ? ReconcileResult.WAITING : ReconcileResult.SUCCESS;
    if (plan.isEmpty()) {
      return done;
    }
    log.debug(
        "TYJob {}: {} → {} with {}",
        key,
        job.view().status().stage(),
        plan.stage(),
        plan.actions());
    PlanExecutor.Result applied = executor.apply(job, pods, plan);
    return switch (applied.outcome()) {
      case CONFLICT -> ReconcileResult.CONFLICT;
      case JOB_GONE -> ReconcileResult.GONE;
      case FENCED -> ReconcileResult.FENCED;
      // Brought back by the reservation's change; the backoff only guards against a lost event.
      case LEADER_WAITS_FOR_DEVICE -> ReconcileResult.WAITING;
      case APPLIED -> {
        if (plan.statusPatch().isPresent()) {
          reportsDue.remove(key);
        }
        // Only a write that produced a new version supersedes the cached one: a patch that changed
        // nothing keeps the resourceVersion, and waiting for a newer one would wait forever.
        applied
            .newResourceVersion()
            .filter(written -> !written.equals(resourceVersion))
            .ifPresent(written -> supersededVersions.put(key, resourceVersion));
        recordTransition(job, plan, now);
        yield applied.podsWaitForDevices() && done == ReconcileResult.SUCCESS
            ? ReconcileResult.WAITING
            : done;
      }
    };
  }

  /**
   * The job's pods by name: those labelled with its name and controlled by this very job. A pod
   * left by an earlier job of the same name (its garbage collection still pending) is not this
   * job's, and must not be mistaken for its leader or a worker.
   */
  private Map<String, V1Pod> ownedPods(String jobKey, String jobUid) {
    Map<String, V1Pod> owned = new LinkedHashMap<>();
    // Loops, not streams: every reconcile looks at each of the job's pods (5,001 for the largest).
    for (V1Pod pod : cache.podsOf(jobKey)) {
      List<V1OwnerReference> owners = pod.getMetadata().getOwnerReferences();
      if (owners == null) {
        continue;
      }
      for (V1OwnerReference owner : owners) {
        if (Boolean.TRUE.equals(owner.getController()) && Objects.equals(jobUid, owner.getUid())) {
          owned.put(pod.getMetadata().getName(), pod);
          break;
        }
      }
    }
    return owned;
  }

  private void recordTransition(JobSnapshot job, Plan plan, Instant now) {
    Stage from = job.view().status().stage();
    if (plan.stage() == from) {
      return;
    }
    metrics.stageChanged(from, plan.stage());
    log.info("TYJob {}: {} → {}", job.key(), from.wireName(), plan.stage().wireName());
    boolean firstStart = plan.stage() == Stage.RUNNING && job.view().status().startTime().isEmpty();
    if (firstStart) {
      job.createdAt().ifPresent(created -> metrics.jobStarted(Duration.between(created, now)));
    }
  }
}
