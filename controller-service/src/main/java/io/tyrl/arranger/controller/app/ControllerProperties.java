package io.tyrl.arranger.controller.app;

import io.tyrl.arranger.controller.lifecycle.LifecycleSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The controller's own settings ({@code arranger.controller.*}). Bad values fail the start with a
 * message naming the property.
 *
 * @param workers reconcile workers; jobs are reconciled in parallel, one job by one worker at a
 *     time
 * @param podCreators pod creates in flight at once, across all jobs: a job's pods are created
 *     concurrently
 * @param statusBatchPeriod how long a status write that only reports on the pods (the leader's
 *     address and phase, created and ready counts, allocated nodes) may be held back so that
 *     several pod changes go out in one write; stage changes, restarts and conditions are written
 *     at once. 0 turns it off
 * @param resyncPeriod how often every cached job is reconciled again even without events; 0 turns
 *     it off
 * @param retry backoff for a job whose reconcile failed, per job, doubling from the initial delay
 * @param refusingNodeAvoidance how long the scheduler avoids, for a job, a node whose kubelet
 *     refused one of its pods after binding
 * @param unreachableNodeGrace how long the pods of a job being rescheduled may sit on a node that
 *     is not Ready before the controller force-deletes them, for pods without a {@code
 *     tolerationSeconds} for {@code node.kubernetes.io/unreachable} or {@code not-ready}
 * @param gpuSharing the reservation pods that hold the GPU devices shares are seated on
 */
@ConfigurationProperties("arranger.controller")
record ControllerProperties(
    @DefaultValue("16") int workers,
    @DefaultValue("32") int podCreators,
    @DefaultValue("10s") Duration statusBatchPeriod,
    @DefaultValue("10m") Duration resyncPeriod,
    @DefaultValue Retry retry,
    @DefaultValue("5m") Duration refusingNodeAvoidance,
    @DefaultValue("5m") Duration unreachableNodeGrace,
    @DefaultValue GpuSharing gpuSharing) {

  static final int MAX_WORKERS = 64;
  static final int MAX_POD_CREATORS = 256;

  /** client-java refuses resync periods below one second. */
  private static final Duration MIN_RESYNC = Duration.ofSeconds(1);

  ControllerProperties {
    if (workers < 1 || workers > MAX_WORKERS) {
      throw new IllegalArgumentException(
          "arranger.controller.workers must be between 1 and " + MAX_WORKERS + ", got " + workers);
    }
    if (podCreators < 1 || podCreators > MAX_POD_CREATORS) {
      throw new IllegalArgumentException(
          "arranger.controller.pod-creators must be between 1 and "
              + MAX_POD_CREATORS
              + ", got "
              + podCreators);
    }
    if (resyncPeriod == null
        || resyncPeriod.isNegative()
        || (!resyncPeriod.isZero() && resyncPeriod.compareTo(MIN_RESYNC) < 0)) {
      throw new IllegalArgumentException(
          "arranger.controller.resync-period must be 0 (off) or at least 1s, got " + resyncPeriod);
    }
    statusBatchPeriod = statusBatchPeriod == null ? Duration.ofSeconds(10) : statusBatchPeriod;
    if (statusBatchPeriod.isNegative()) {
      throw new IllegalArgumentException(
          "arranger.controller.status-batch-period must not be negative, got " + statusBatchPeriod);
    }
    retry = retry == null ? new Retry(null, null) : retry;
    gpuSharing = gpuSharing == null ? new GpuSharing(null, null, null, null, null) : gpuSharing;
    refusingNodeAvoidance =
        refusingNodeAvoidance == null ? Duration.ofMinutes(5) : refusingNodeAvoidance;
    unreachableNodeGrace =
        unreachableNodeGrace == null ? Duration.ofMinutes(5) : unreachableNodeGrace;
    if (refusingNodeAvoidance.isNegative()) {
      throw new IllegalArgumentException(
          "arranger.controller.refusing-node-avoidance must not be negative, got "
              + refusingNodeAvoidance);
    }
    if (unreachableNodeGrace.isNegative()) {
      throw new IllegalArgumentException(
          "arranger.controller.unreachable-node-grace must not be negative, got "
              + unreachableNodeGrace);
    }
  }

  /**
   * @param namespace where the reservation pods run: the controller's own namespace, that of its
   *     Lease (the chart's release namespace)
   * @param image the reservation's image: it needs {@code sh} and {@code curl}
   * @param serviceAccount the reservations' service account, allowed to annotate pods of {@code
   *     namespace}
   * @param unusedGrace how long a reservation no share needs is kept before it is deleted
   * @param startPatience how long a reservation may take to hold its GPU before the jobs waiting
   *     for it get a Warning Event saying why it does not
   */
  record GpuSharing(
      @DefaultValue("default") String namespace,
      @DefaultValue("curlimages/curl:8.10.1") String image,
      @DefaultValue("arranger-gpu-reservation") String serviceAccount,
      @DefaultValue("30s") Duration unusedGrace,
      @DefaultValue("60s") Duration startPatience) {

    GpuSharing {
      namespace = namespace == null || namespace.isBlank() ? "default" : namespace;
      image = image == null || image.isBlank() ? "curlimages/curl:8.10.1" : image;
      serviceAccount =
          serviceAccount == null || serviceAccount.isBlank()
              ? "arranger-gpu-reservation"
              : serviceAccount;
      unusedGrace = unusedGrace == null ? Duration.ofSeconds(30) : unusedGrace;
      if (unusedGrace.isNegative()) {
        throw new IllegalArgumentException(
            "arranger.controller.gpu-sharing.unused-grace must not be negative, got "
                + unusedGrace);
      }
      startPatience = startPatience == null ? Duration.ofSeconds(60) : startPatience;
      if (startPatience.isNegative()) {
        throw new IllegalArgumentException(
            "arranger.controller.gpu-sharing.start-patience must not be negative, got "
                + startPatience);
      }
    }
  }

  LifecycleSettings lifecycle() {
    return new LifecycleSettings(refusingNodeAvoidance, unreachableNodeGrace);
  }

  /**
   * @param initialDelay the first retry's delay
   * @param maxDelay the cap the doubling delay stops at
   */
  record Retry(
      @DefaultValue("500ms") Duration initialDelay, @DefaultValue("5m") Duration maxDelay) {

    Retry {
      initialDelay = initialDelay == null ? Duration.ofMillis(500) : initialDelay;
      maxDelay = maxDelay == null ? Duration.ofMinutes(5) : maxDelay;
      if (initialDelay.isNegative() || initialDelay.isZero()) {
        throw new IllegalArgumentException(
            "arranger.controller.retry.initial-delay must be positive, got " + initialDelay);
      }
      if (maxDelay.compareTo(initialDelay) < 0) {
        throw new IllegalArgumentException(
            "arranger.controller.retry.max-delay ("
                + maxDelay
                + ") must not be shorter than retry.initial-delay ("
                + initialDelay
                + ")");
      }
    }
  }
}
