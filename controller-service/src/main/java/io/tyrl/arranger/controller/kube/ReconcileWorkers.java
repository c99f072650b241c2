package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.tyrl.arranger.controller.kube.ControllerMetrics.ReconcileResult;
import io.tyrl.arranger.kube.DaemonThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rate-limited work queue of job keys ({@code namespace/name}) and the worker threads that drain
 * it into the reconciler ({@link TYJobReconciler#reconcile}). The queue hands a key to one worker
 * at a time and collapses repeated adds of a key that is waiting, so a job is never reconciled
 * concurrently with itself. Failures are retried with per-key exponential backoff; a success resets
 * the key's backoff. The queue reports client-go's work-queue metrics ({@code
 * workqueue_*{name="tyjob"}}).
 *
 * <p>No job can kill a worker: anything a reconcile throws — a bug's RuntimeException, or an {@link
 * Error} such as an OutOfMemoryError or StackOverflowError in one job's work — is contained here.
 * It is logged with the job's key, counted ({@code arranger_controller_reconcile_crashes_total}),
 * and the job retried with backoff, at most {@value #MAX_RETRIES_AFTER_CRASH} times in a row; after
 * that it waits for its next change (or the informer's resync) instead of crashing a worker on a
 * loop. The worker thread goes on with the next job.
 *
 * <p>One instance serves one leadership term: {@link #shutDown()} stops it for good.
 */
public final class ReconcileWorkers {

  /** Retries of a job whose reconciles keep crashing, before it waits for its next change. */
  static final int MAX_RETRIES_AFTER_CRASH = 5;

  private static final Logger log = LoggerFactory.getLogger(ReconcileWorkers.class);

  private final Function<String, ReconcileResult> reconciler;
  private final Duration batchedRecheck;
  private final ControllerMetrics metrics;

  /** Job key → reconciles in a row that crashed; cleared by any reconcile that returns. */
  private final Map<String, Integer> consecutiveCrashes = new ConcurrentHashMap<>();

  private final RateLimitingQueue<String> queue;
  private final ScheduledExecutorService queueClock;

  /** Keys waiting out an {@link #enqueueAfter} delay, and the clock they wait on. */
  private final Set<String> delayed = ConcurrentHashMap.newKeySet();

  private final ScheduledExecutorService delays;
  private final List<Thread> workers = new ArrayList<>();

  /**
   * @param batchedRecheck how soon a job whose status reports were held back is looked at again
   */
  public ReconcileWorkers(
      Function<String, ReconcileResult> reconciler,
      int workerCount,
      Duration retryInitialDelay,
      Duration retryMaxDelay,
      Duration batchedRecheck,
      ControllerMetrics metrics) {
    this.batchedRecheck = batchedRecheck;
    this.reconciler = reconciler;
    this.metrics = metrics;
    this.queueClock =
        Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("arranger-controller-queue"));
    this.delays =
        Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("arranger-controller-delays"));
    this.queue =
        metrics
            .workQueue()
            .newQueue(
                queueClock,
                new ItemExponentialFailureRateLimiter<>(retryInitialDelay, retryMaxDelay));
    ThreadFactory workerThreads = DaemonThreads.named("arranger-controller-worker");
    for (int i = 0; i < workerCount; i++) {
      workers.add(workerThreads.newThread(this::work));
    }
  }

  public void start() {
    workers.forEach(Thread::start);
  }

  public void enqueue(String key) {
    queue.add(key);
  }

  /**
   * Enqueues the key after the delay; while it waits, further delayed enqueues of it are dropped.
   * (The queue's own {@code addAfter} keeps one timer per call: fifty calls within the delay once
   * reconciled the job fourteen times.)
   */
  public void enqueueAfter(String key, Duration delay) {
    if (delayed.add(key)) {
      delays.schedule(
          () -> {
            delayed.remove(key);
            queue.add(key);
          },
          delay.toNanos(),
          TimeUnit.NANOSECONDS);
    }
  }

  /** Stops taking work at once; reconciles in flight are interrupted. */
  public void shutDown() {
    queue.shutDown();
    workers.forEach(Thread::interrupt);
    queueClock.shutdownNow();
    delays.shutdownNow();
  }

  /**
   * Takes no new keys and lets the reconciles in flight finish, waiting at most {@code timeout};
   * whatever still runs then is interrupted.
   */
  public void drain(Duration timeout) {
    queue.shutDown();
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread worker : workers) {
      long left = deadline - System.nanoTime();
      if (left > 0 && worker.isAlive()) {
        try {
          worker.join(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    shutDown();
  }

  public boolean isShutDown() {
    return queue.isShuttingDown();
  }

  private void work() {
    while (!queue.isShuttingDown()) {
      String key;
      try {
        key = queue.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (key == null) {
        return;
      }
      try {
        if (!queue.isShuttingDown()) {
          handle(key, reconciler.apply(key));
        }
      } catch (Throwable crash) {
        // The reconciler reports failures as results; what is thrown is a bug or an Error of this
        // one job's work. This is the last guard that keeps the worker alive for the other jobs.
        contain(key, crash);
      } finally {
        queue.done(key);
      }
    }
  }

  private void contain(String key, Throwable crash) {
    int crashes = consecutiveCrashes.merge(key, 1, Integer::sum);
    boolean retry = crashes <= MAX_RETRIES_AFTER_CRASH;
    if (retry) {
      queue.addRateLimited(key);
    } else {
      queue.forget(key);
    }
    try {
      metrics.reconcileCrashed(crash);
      if (retry) {
        log.error(
            "reconcile of TYJob {} crashed ({} in a row), retrying with backoff",
            key,
            crashes,
            crash);
      } else {
        log.error(
            "reconcile of TYJob {} crashed {} times in a row; not retried until the job changes or is resynced",
            key,
            crashes,
            crash);
      }
    } catch (Throwable reportFailed) {
      // Reporting needs memory too, and right after an OutOfMemoryError it may fail again. The job
      // is already queued (or parked) above; the worker must go on regardless.
    }
  }

  private void handle(String key, ReconcileResult result) {
    consecutiveCrashes.remove(key);
    switch (result) {
      case SUCCESS, GONE -> queue.forget(key);
      case STALE_CACHE -> {
        queue.forget(key);
        queue.addAfter(key, TYJobReconciler.CACHE_RECHECK);
      }
      case BATCHED -> {
        queue.forget(key);
        queue.addAfter(key, batchedRecheck);
      }
      // Fenced: the lease is late to renew, or lost. Lost ends this term and its queue; late must
      // not
      // drop the job, or it would wait for its next change.
      case CONFLICT, ERROR, FENCED, WAITING -> queue.addRateLimited(key);
    }
  }
}
