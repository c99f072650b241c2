package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.tyrl.arranger.controller.kube.ControllerMetrics.ReconcileResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rate-limited work queue of job keys ({@code namespace/name}) and the worker threads that drain
 * it into the reconciler ({@link TYJobReconciler#reconcile}). The queue hands a key to one worker at a time and collapses
 * repeated adds of a key that is waiting, so a job is never reconciled concurrently with itself.
 * Failures are retried with per-key exponential backoff; a success resets the key's backoff.
 *
 * <p>One instance serves one leadership term: {@link #shutDown()} stops it for good.
 */
public final class ReconcileWorkers {

  private static final Logger log = LoggerFactory.getLogger(ReconcileWorkers.class);

  private final Function<String, ReconcileResult> reconciler;
  private final RateLimitingQueue<String> queue;
  private final ExecutorService queueClock;
  private final List<Thread> workers = new ArrayList<>();

  public ReconcileWorkers(Function<String, ReconcileResult> reconciler, int workerCount, Duration retryInitialDelay, Duration retryMaxDelay) {
    this.reconciler = reconciler;
    this.queueClock = Executors.newSingleThreadExecutor(daemon("arranger-controller-queue"));
    this.queue = new DefaultRateLimitingQueue<>(queueClock,
        new ItemExponentialFailureRateLimiter<>(retryInitialDelay, retryMaxDelay));
    ThreadFactory workerThreads = daemon("arranger-controller-worker");
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

  /** Stops taking work at once; reconciles in flight are interrupted. */
  public void shutDown() {
    queue.shutDown();
    workers.forEach(Thread::interrupt);
    queueClock.shutdownNow();
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
      } catch (RuntimeException e) {
        // The reconciler reports failures as results; this is the last guard that keeps the worker alive.
        log.error("worker failed on TYJob {}; retrying with backoff", key, e);
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  }

  private void handle(String key, ReconcileResult result) {
    switch (result) {
      case SUCCESS, GONE -> queue.forget(key);
      case STALE_CACHE -> {
        queue.forget(key);
        queue.addAfter(key, TYJobReconciler.CACHE_RECHECK);
      }
      case CONFLICT, ERROR -> queue.addRateLimited(key);
      case FENCED -> queue.forget(key);
    }
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
