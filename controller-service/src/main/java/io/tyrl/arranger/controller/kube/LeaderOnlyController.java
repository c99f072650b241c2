package io.tyrl.arranger.controller.kube;

import io.tyrl.arranger.kube.leader.LeadershipListener;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the reconcile workers only while this replica holds the Lease. A standby keeps its informers
 * warm (and so stays ready) but reconciles nothing, so two replicas never act on a job at once.
 *
 * <p>A new term waits for the informers to sync before it plans anything: a plan made from a
 * half-filled pod cache would take a leader that is merely not listed yet for a lost one and count
 * a restart.
 */
public final class LeaderOnlyController implements LeadershipListener {

  private static final Logger log = LoggerFactory.getLogger(LeaderOnlyController.class);
  private static final Duration SYNC_POLL = Duration.ofMillis(100);

  private final InformerCache cache;
  private final JobEventRouter router;
  private final Supplier<ReconcileWorkers> newTerm;
  private ReconcileWorkers current;

  public LeaderOnlyController(
      InformerCache cache, JobEventRouter router, Supplier<ReconcileWorkers> newTerm) {
    this.cache = cache;
    this.router = router;
    this.newTerm = newTerm;
  }

  @Override
  public synchronized void startedLeading() {
    if (current != null) {
      current.shutDown();
    }
    ReconcileWorkers term = newTerm.get();
    current = term;
    Thread starter = new Thread(() -> begin(term), "arranger-controller-start");
    starter.setDaemon(true);
    starter.start();
  }

  @Override
  public synchronized void stoppedLeading() {
    router.stop();
    if (current != null) {
      current.shutDown();
      current = null;
      log.info("controller stopped: this replica no longer leads");
    }
  }

  @Override
  public void drain(Duration timeout) {
    ReconcileWorkers term;
    synchronized (this) {
      router.stop();
      term = current;
    }
    if (term != null) {
      term.drain(timeout);
      log.info("controller drained: reconciles in flight finished before the lease is given up");
    }
  }

  /** Whether workers are reconciling right now. */
  public synchronized boolean isReconciling() {
    return current != null && !current.isShutDown() && cache.hasSynced();
  }

  private void begin(ReconcileWorkers term) {
    while (!cache.hasSynced()) {
      if (term.isShutDown()) {
        return;
      }
      try {
        Thread.sleep(SYNC_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    synchronized (this) {
      if (term != current || term.isShutDown()) {
        return;
      }
      // Route events first, then enqueue what is cached: a job changing in between is enqueued
      // twice, never missed.
      router.routeTo(term::enqueue, term::enqueueAfter);
      cache.jobKeys().forEach(term::enqueue);
      term.start();
      log.info("controller started: reconciling {} cached TYJobs", cache.jobKeys().size());
    }
  }
}
