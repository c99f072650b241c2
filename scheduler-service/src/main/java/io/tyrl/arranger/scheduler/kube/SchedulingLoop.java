package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.kube.ReadinessCheck;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import io.tyrl.arranger.kube.leader.LeadershipListener;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.framework.CyclePacing;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.view.LastCycle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling cycle, every period and sooner on a change that may let a job be placed ({@link
 * CyclePacing}): snapshot the cache (with the assumed statuses of decisions not yet echoed) → run
 * the core → hand the status writes of changed jobs to the writer (never waiting for them), then
 * write changed Queues. It runs only while this replica leads, and only once every informer and the
 * configuration are synced; losing the lease cancels it at once, and a graceful stop lets the cycle
 * in flight and the writes it handed over finish first. No exception ends the loop: a failed cycle
 * is logged and counted, and the next one starts after the period. Each cycle's snapshot and result
 * are kept for the operator's view ({@link LastCycle}).
 */
public final class SchedulingLoop implements LeadershipListener, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SchedulingLoop.class);

  private final ClusterInformers informers;
  private final Scheduler scheduler;
  private final SchedulerConfigurationSource configuration;
  private final ScheduleStatusWriter writer;
  private final QueueStatusWriter queueWriter;
  private final QueueUsageKeeper usageKeeper;
  private final AssumedStatuses assumed;
  private final List<ReadinessCheck> syncedFirst;
  private final LeadershipFence fence;
  private final ReentrantLock cycleInProgress = new ReentrantLock();
  private final SchedulerMetrics metrics;
  private final ApiClient client;
  private final CyclePacing pacing;
  private final Clock clock;
  private final LastCycle lastCycle;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "scheduling-loop");
            thread.setDaemon(true);
            return thread;
          });
  private volatile boolean leading;
  // The pacing state below is guarded by this. Each scheduled cycle belongs to a chain; starting a
  // new
  // chain (a sooner cycle, leadership lost or drained) makes the cycle scheduled before it do
  // nothing.
  private ScheduledFuture<?> next;
  private long chain;
  private long nextDueNanos;
  private boolean cycleRunning;
  private boolean changeSeen;
  private boolean draining;
  private long lastEndNanos = System.nanoTime();
  private long lastCycleNanos;

  /**
   * @param syncedFirst what must have synced before the first cycle (informers, the configuration)
   */
  public SchedulingLoop(
      ClusterInformers informers,
      Scheduler scheduler,
      SchedulerConfigurationSource configuration,
      ScheduleStatusWriter writer,
      QueueStatusWriter queueWriter,
      QueueUsageKeeper usageKeeper,
      AssumedStatuses assumed,
      List<ReadinessCheck> syncedFirst,
      LeadershipFence fence,
      SchedulerMetrics metrics,
      ApiClient client,
      CyclePacing pacing,
      Clock clock,
      LastCycle lastCycle) {
    this.informers = informers;
    this.queueWriter = queueWriter;
    this.usageKeeper = usageKeeper;
    this.assumed = assumed;
    this.syncedFirst = List.copyOf(syncedFirst);
    this.fence = fence;
    this.scheduler = scheduler;
    this.configuration = configuration;
    this.writer = writer;
    this.metrics = metrics;
    this.client = client;
    this.pacing = pacing;
    this.clock = clock;
    this.lastCycle = lastCycle;
  }

  @Override
  public synchronized void startedLeading() {
    if (leading && !draining) {
      return;
    }
    leading = true;
    draining = false;
    scheduleAt(System.nanoTime());
  }

  @Override
  public synchronized void stoppedLeading() {
    leading = false;
    // What this replica knew of usage may be behind what the next leader writes: read it again.
    usageKeeper.forget();
    chain++;
    if (next != null) {
      next.cancel(true);
      next = null;
    }
  }

  /**
   * Called on a change that may let a job be placed: the next cycle starts as soon as the pacing
   * allows instead of a period after the last one. A change seen during a cycle is for the one
   * after it.
   */
  public synchronized void changeSeen() {
    changeSeen = true;
    if (!leading || draining || cycleRunning || !pacing.cycleOnChange()) {
      return;
    }
    long due = lastEndNanos + pacing.delayNanos(lastCycleNanos, true);
    if (next != null && due < nextDueNanos) {
      next.cancel(false);
      scheduleAt(due);
    }
  }

  private synchronized void scheduleAt(long dueNanos) {
    long ours = ++chain;
    nextDueNanos = dueNanos;
    next =
        executor.schedule(
            () -> cycleSafely(ours),
            Math.max(0, dueNanos - System.nanoTime()),
            TimeUnit.NANOSECONDS);
  }

  @Override
  public void drain(Duration timeout) {
    synchronized (this) {
      draining = true;
      chain++;
      if (next != null) {
        next.cancel(false);
        next = null;
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      // The cycle in flight, if any, holds the lock until it has handed its writes over; then they
      // are awaited.
      if (cycleInProgress.tryLock(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        cycleInProgress.unlock();
        if (writer.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
          log.info(
              "scheduling drained: the last cycle's writes finished before the lease is given up");
          return;
        }
      }
      log.warn(
          "scheduling did not drain within {} ({} status writes in flight); giving the lease up anyway",
          timeout,
          writer.inFlight());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void cycleSafely(long ours) {
    synchronized (this) {
      if (ours != chain) {
        return;
      }
      cycleRunning = true;
      changeSeen = false;
    }
    long start = System.nanoTime();
    boolean ran = false;
    cycleInProgress.lock();
    try {
      ran = cycle();
    } catch (RuntimeException | Error e) {
      metrics.cycleFailed();
      log.error("scheduling cycle failed; the next one starts in {}", pacing.period(), e);
    } finally {
      cycleInProgress.unlock();
      long end = System.nanoTime();
      synchronized (this) {
        cycleRunning = false;
        lastEndNanos = end;
        lastCycleNanos = end - start;
        if (ours == chain && leading && !draining) {
          // A cycle that could not run (caches not synced yet) is tried again as soon as one
          // started by a change.
          scheduleAt(end + pacing.delayNanos(lastCycleNanos, changeSeen || !ran));
        }
      }
    }
  }

  /** One cycle; returns false when the cache or the configuration is not synced yet. */
  boolean cycle() {
    if (!leading || !syncedFirst.stream().allMatch(ReadinessCheck::ready)) {
      return false;
    }
    long start = System.nanoTime();
    if (!informers.hasQueue(TYJobDefaults.QUEUE)
        && fence.mayWrite()
        && ArrangerResources.createQueueIfMissing(client, TYJobDefaults.QUEUE)) {
      log.info("created the default Queue");
    }
    Instant now = clock.instant();
    ClusterInformers.Contents contents = informers.contents(assumed, now);
    reportUnreadableQueues(contents.unreadableQueues());
    SnapshotAssembler.Assembly assembly = contents.assembly();
    SchedulerConfigurationSource.Applied applied = configuration.applied();
    Map<String, ClusterInformers.ObservedQueue> observedQueues = informers.observedQueues();
    Snapshot snapshot =
        usageKeeper.withUsage(
            assembly.snapshot(), observedQueues, now, applied.configuration().fairness());
    CycleResult result = scheduler.runCycle(snapshot, applied.configuration(), now);
    Map<String, JobDecision> decisions = new HashMap<>(result.decisions());
    Map<String, V1alpha1TYJob> jobs = assembly.jobsByKey();
    for (SnapshotAssembler.UnreadableJob bad : assembly.unreadable()) {
      V1alpha1TYJob job = jobs.get(bad.key());
      // Its placements stand: a job the scheduler cannot read is reported, not unscheduled, and
      // keeps the device seats and topology domains recorded with them.
      V1alpha1TYJobStatus status = job.getStatus();
      decisions.put(
          bad.key(),
          new JobDecision(
              ScheduleState.UNSCHEDULED,
              JobReader.recorded(status == null ? null : status.getAllocations()),
              ReasonCode.INVALID_JOB,
              bad.problem(),
              null,
              JobReader.recorded(status == null ? null : status.getGpuDevices()),
              JobReader.recorded(status == null ? null : status.getTopologyDomains())));
    }
    metrics.unreadableJobs(assembly.unreadable().size());
    metrics.pendingAges(decisions, jobs, now);
    if (!leading) {
      return false;
    }
    lastCycle.record(snapshot, result, decisions, applied.origin(), applied.text());
    Map<String, List<Victim>> victims = victimsToRecord(result, decisions, jobs);
    metrics.victimsChosen(result);
    metrics.jobsPlaced(decisions, jobs, now);
    ScheduleStatusWriter.Submission submission =
        writer.write(jobs, decisions, victims, informers::podUid, now);
    if (leading) {
      metrics.queueStatusWritten(queueWriter.write(result.queues(), observedQueues, now));
      usageKeeper.write(observedQueues, now);
      metrics.queueUsage(usageKeeper.clusterShares(), usageKeeper.usages());
    }
    metrics.cycleFinished(Duration.ofNanos(System.nanoTime() - start), submission);
    if (submission.submitted() > 0 || submission.deferred() > 0) {
      log.debug(
          "cycle: {} jobs, {} status writes sent, {} deferred ({} in flight), core {} ms",
          decisions.size(),
          submission.submitted(),
          submission.deferred(),
          writer.inFlight(),
          result.elapsed().toMillis());
    }
    return true;
  }

  private List<ClusterInformers.UnreadableQueue> lastUnreadableQueues = List.of();

  /**
   * Logged when the set changes, not every cycle; jobs in such a queue wait with the core's reason.
   */
  private void reportUnreadableQueues(List<ClusterInformers.UnreadableQueue> unreadable) {
    if (!unreadable.equals(lastUnreadableQueues)) {
      unreadable.forEach(
          queue ->
              log.warn(
                  "Queue {} cannot be read and is left out: {}", queue.name(), queue.problem()));
      lastUnreadableQueues = unreadable;
    }
  }

  /**
   * What each preemptor's {@code status.victims} should say: the victims chosen this cycle; while
   * it still waits for earlier ones, those (so that the controller can finish deleting them); once
   * it is placed or gives up, nothing.
   */
  static Map<String, List<Victim>> victimsToRecord(
      CycleResult result, Map<String, JobDecision> decisions, Map<String, V1alpha1TYJob> jobs) {
    Map<String, List<Victim>> victims = new HashMap<>(result.victims());
    decisions.forEach(
        (key, decision) -> {
          boolean waiting =
              decision.reasonIfAny().filter(r -> r == ReasonCode.WAITING_FOR_VICTIMS).isPresent();
          V1alpha1TYJob job = jobs.get(key);
          if (waiting && !victims.containsKey(key) && job != null) {
            victims.put(key, ScheduleStatusChange.recorded(job.getStatus()));
          }
        });
    return victims;
  }

  @Override
  public void close() {
    stoppedLeading();
    executor.shutdownNow();
  }
}
