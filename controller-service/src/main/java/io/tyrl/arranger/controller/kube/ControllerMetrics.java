package io.tyrl.arranger.controller.kube;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.kube.metrics.LatencyBuckets;
import io.tyrl.arranger.kube.metrics.WorkQueueMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The controller's Micrometer meters. On {@code /actuator/prometheus} they appear as {@code
 * arranger_controller_reconcile_duration_seconds}, {@code arranger_controller_jobs}, {@code
 * arranger_controller_stage_transitions_total}, {@code arranger_controller_pod_creations_total},
 * {@code arranger_controller_pod_deletions_total} and {@code
 * arranger_controller_job_start_duration_seconds}; the latencies are histograms with fixed buckets
 * ({@link LatencyBuckets}). The reconcile queue's metrics are client-go's {@code workqueue_*} with
 * {@code name="tyjob"}.
 *
 * <p>Pod counters are named "creations"/"deletions" rather than "pods.created": the Prometheus
 * client strips a {@code _created} suffix, which OpenMetrics reserves for a counter's creation
 * timestamp.
 */
public final class ControllerMetrics {

  /** How a reconcile ended, the {@code result} tag of the reconcile timer. */
  public enum ReconcileResult {
    /** The plan was applied (or there was nothing to do). */
    SUCCESS("success"),
    /** The job changed while the plan was being applied (409); planned again at once. */
    CONFLICT("conflict"),
    /** The cache had not caught up with the controller's own last write; checked again shortly. */
    STALE_CACHE("stale_cache"),
    /** The job no longer exists. */
    GONE("gone"),
    /** Something failed; retried with backoff. */
    ERROR("error"),
    /**
     * The plan was applied, but the job waits for something no event announces — a pod of another
     * owner to free a name, a node's grace to run out; looked at again with backoff.
     */
    WAITING("waiting"),
    /**
     * This replica may not write as leader right now; retried with backoff while this term lasts.
     */
    FENCED("fenced"),
    /**
     * The plan was applied but for its status write, which only reported on the pods and was held
     * back; looked at again after the status batch period, when the reports are written in one go.
     */
    BATCHED("batched");

    private final String tag;

    ReconcileResult(String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private final MeterRegistry registry;
  private final Timer jobStartLatency;
  private final WorkQueueMetrics workQueue;

  public ControllerMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.jobStartLatency =
        Timer.builder("arranger.controller.job.start.duration")
            .description("Time from a TYJob's creation until it first reached Running")
            .serviceLevelObjectives(LatencyBuckets.JOB)
            .register(registry);
    this.workQueue = new WorkQueueMetrics(registry, "tyjob");
    for (ReconcileResult result : ReconcileResult.values()) {
      reconcileTimer(result);
    }
    for (PodRole role : PodRole.values()) {
      podsCreated(role);
    }
  }

  /** Registers one gauge per stage, read from {@code jobsByStage} at every scrape. */
  public void observeJobsByStage(Supplier<Map<Stage, Long>> jobsByStage) {
    Supplier<Map<Stage, Long>> oncePerScrape = new CountedOncePerScrape(jobsByStage);
    for (Stage stage : Stage.values()) {
      // A strong reference: the supplier is a method reference nobody else holds, and a weakly held
      // gauge object would be collected and report NaN.
      Gauge.builder(
              "arranger.controller.jobs",
              oncePerScrape,
              counts -> counts.get().getOrDefault(stage, 0L))
          .strongReference(true)
          .description("TYJobs in the informer cache, by status.stage")
          .tag("stage", stage.wireName())
          .register(registry);
    }
  }

  /**
   * A scrape reads the gauge of every stage one after the other; the jobs are counted once for all
   * of them (the counts are at most a second old), not once per stage.
   */
  private static final class CountedOncePerScrape implements Supplier<Map<Stage, Long>> {
    private static final long FRESH_NANOS = 1_000_000_000L;
    private final Supplier<Map<Stage, Long>> count;
    private Map<Stage, Long> last;
    private long countedAt;

    CountedOncePerScrape(Supplier<Map<Stage, Long>> count) {
      this.count = count;
    }

    @Override
    public synchronized Map<Stage, Long> get() {
      long now = System.nanoTime();
      if (last == null || now - countedAt > FRESH_NANOS) {
        last = count.get();
        countedAt = now;
      }
      return last;
    }
  }

  /** The metrics of the reconcile work queue, which every leadership term's queue reports to. */
  public WorkQueueMetrics workQueue() {
    return workQueue;
  }

  public void reconciled(ReconcileResult result, Duration took) {
    reconcileTimer(result).record(took);
  }

  /**
   * A reconcile threw instead of returning a result (an Error such as OutOfMemoryError, or a bug),
   * tagged with the throwable's class so that a dashboard tells a memory problem from a bug.
   */
  public void reconcileCrashed(Throwable crash) {
    Counter.builder("arranger.controller.reconcile.crashes")
        .description(
            "Reconciles that threw instead of returning a result; the worker contained it and went on")
        .tag("error", crash.getClass().getSimpleName())
        .register(registry)
        .increment();
  }

  public void stageChanged(Stage from, Stage to) {
    Counter.builder("arranger.controller.stage.transitions")
        .description("TYJob stage transitions written by the controller")
        .tag("from", from.wireName())
        .tag("to", to.wireName())
        .register(registry)
        .increment();
  }

  public void podCreated(PodRole role) {
    podsCreated(role).increment();
  }

  public void podDeleted(String reason) {
    Counter.builder("arranger.controller.pod.deletions")
        .description("Pods deleted by the controller, by reason")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  public void jobStarted(Duration sinceCreation) {
    if (!sinceCreation.isNegative()) {
      jobStartLatency.record(sinceCreation);
    }
  }

  private Timer reconcileTimer(ReconcileResult result) {
    return Timer.builder("arranger.controller.reconcile.duration")
        .description("Time to reconcile one TYJob: plan and apply")
        .tag("result", result.tag())
        .serviceLevelObjectives(LatencyBuckets.CYCLE)
        .register(registry);
  }

  private Counter podsCreated(PodRole role) {
    return Counter.builder("arranger.controller.pod.creations")
        .description("Pods created by the controller")
        .tag("role", role.wireName())
        .register(registry);
  }
}
