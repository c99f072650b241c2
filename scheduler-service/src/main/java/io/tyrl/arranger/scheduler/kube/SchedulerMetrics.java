package io.tyrl.arranger.scheduler.kube;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.kube.metrics.LatencyBuckets;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's Prometheus metrics, named after Volcano's and kube-scheduler's: {@code
 * arranger_scheduler_e2e_scheduling_duration_seconds} (a whole cycle, writes included), {@code
 * arranger_scheduler_cycle_duration_seconds} (the core alone), per action and per plugin durations,
 * {@code arranger_scheduler_job_scheduling_duration_seconds} (a job's creation until its first
 * placement), {@code arranger_scheduler_schedule_attempts_total{result}}, pending jobs and
 * deserved, allocated, guaranteed and over-quota resources per queue, and status writes. Every
 * latency is a histogram with fixed buckets ({@link LatencyBuckets}), so that replicas and time
 * ranges can be summed.
 */
public final class SchedulerMetrics implements CycleListener {

  private final MeterRegistry registry;
  private final Timer e2e;
  private final Timer cycle;
  private final Timer jobScheduling;

  /**
   * UIDs of the jobs whose first placement has been observed, pruned to the jobs that still exist.
   */
  private final Set<String> placedJobs = new HashSet<>();

  private final Counter scheduled;
  private final Counter unschedulable;
  private final Counter failed;
  private final Counter unreadable;
  private final Counter cycleFailures;
  private final Counter writes;
  private final Counter writeFailures;
  private final Counter writeConflicts;
  private final Counter writesFenced;
  private final Counter writesToGoneJobs;
  private final Counter writesDeferred;
  private final Counter queueWrites;
  private final Counter queueWriteFailures;
  private final Counter queueWriteConflicts;
  private final StableMultiGauge pendingJobs;
  private final StableMultiGauge queueJobs;
  private final StableMultiGauge deserved;
  private final StableMultiGauge allocated;
  private final StableMultiGauge guarantee;
  private final StableMultiGauge overQuota;
  private final StableMultiGauge oldestPending;
  private final StableMultiGauge usage;
  private final StableMultiGauge usageShare;

  public SchedulerMetrics(MeterRegistry registry) {
    this.registry = registry;
    e2e =
        Timer.builder("arranger.scheduler.e2e.scheduling.duration")
            .description("A whole scheduling cycle: snapshot, actions and status writes")
            .serviceLevelObjectives(LatencyBuckets.CYCLE)
            .register(registry);
    cycle =
        Timer.builder("arranger.scheduler.cycle.duration")
            .description("The scheduling core's part of a cycle: session, plugins and actions")
            .serviceLevelObjectives(LatencyBuckets.CYCLE)
            .register(registry);
    jobScheduling =
        Timer.builder("arranger.scheduler.job.scheduling.duration")
            .description(
                "A TYJob's creation until the scheduler first placed it (its minimum, or part of it)")
            .serviceLevelObjectives(LatencyBuckets.JOB)
            .register(registry);
    scheduled = attempts("scheduled");
    unschedulable = attempts("unschedulable");
    failed = attempts("failed");
    unreadable = attempts("error");
    cycleFailures =
        Counter.builder("arranger.scheduler.cycle.failures")
            .description("Cycles that ended in an error; the loop goes on")
            .register(registry);
    writes =
        Counter.builder("arranger.scheduler.status.writes")
            .tag("result", "written")
            .register(registry);
    writeFailures =
        Counter.builder("arranger.scheduler.status.writes")
            .tag("result", "failed")
            .register(registry);
    writeConflicts =
        Counter.builder("arranger.scheduler.status.writes")
            .tag("result", "conflict")
            .description("Decisions dropped because the job changed since they were made")
            .register(registry);
    writesFenced =
        Counter.builder("arranger.scheduler.status.writes")
            .tag("result", "fenced")
            .description("Writes not sent because this replica may no longer write as leader")
            .register(registry);
    writesToGoneJobs =
        Counter.builder("arranger.scheduler.status.writes")
            .tag("result", "gone")
            .description("Writes to jobs deleted since the decision")
            .register(registry);
    writesDeferred =
        Counter.builder("arranger.scheduler.status.writes.deferred")
            .description(
                "Changed jobs not written in a cycle because the writer's backlog was full; decided again next cycle")
            .register(registry);
    queueWrites =
        Counter.builder("arranger.scheduler.queue.status.writes")
            .tag("result", "written")
            .description("Queue status patches, sent only when a queue's status changed")
            .register(registry);
    queueWriteFailures =
        Counter.builder("arranger.scheduler.queue.status.writes")
            .tag("result", "failed")
            .register(registry);
    queueWriteConflicts =
        Counter.builder("arranger.scheduler.queue.status.writes")
            .tag("result", "conflict")
            .register(registry);
    pendingJobs =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.pending.jobs")
                .description("Jobs not fully placed, per queue"),
            registry);
    queueJobs =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.jobs")
                .description(
                    "Jobs per queue as its status counts them: pending (not admitted), inqueue (admitted, minimum not placed), running (minimum placed)"),
            registry);
    deserved =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.deserved")
                .description(
                    "A queue's deserved share, per resource (cpu in cores, memory in bytes)"),
            registry);
    allocated =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.allocated")
                .description(
                    "Resources placed for a queue's jobs, per resource (cpu in cores, memory in bytes)"),
            registry);
    guarantee =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.guarantee")
                .description(
                    "What a queue is guaranteed, per resource (cpu in cores, memory in bytes); none when it has no guarantee"),
            registry);
    overQuota =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.over.quota")
                .description(
                    "What a queue holds above its guarantee, per resource (cpu in cores, memory in bytes): what reclaim may take back"),
            registry);
    oldestPending =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.pending.job.age.max")
                .baseUnit("seconds")
                .description(
                    "Age of the oldest job of a queue that has no placement yet (0 when none waits)"),
            registry);
    usage =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.usage")
                .description(
                    "A queue's past usage, per resource: what it held integrated over time in resource-seconds (cpu in cores), each second halved every half-life since"),
            registry);
    usageShare =
        new StableMultiGauge(
            MultiGauge.builder("arranger.scheduler.queue.usage.cluster.share")
                .description(
                    "The share of the cluster a queue held on (decayed) average, per resource, 0..1: what fairness over time lowers its share above its guarantee by"),
            registry);
  }

  /** Each queue's past usage and the share of the cluster it amounts to, as of the last cycle. */
  void queueUsage(
      Map<String, Map<String, Double>> clusterShares,
      Map<String, io.tyrl.arranger.scheduler.api.QueueUsage> usages) {
    Map<Tags, Double> usageRows = new HashMap<>();
    Map<Tags, Double> shareRows = new HashMap<>();
    usages.forEach(
        (queue, queueUsage) ->
            queueUsage
                .queue()
                .total()
                .forEach(
                    (resource, amount) ->
                        usageRows.put(Tags.of("queue", queue, "resource", resource), amount)));
    clusterShares.forEach(
        (queue, shares) ->
            shares.forEach(
                (resource, share) ->
                    shareRows.put(Tags.of("queue", queue, "resource", resource), share)));
    usage.set(usageRows);
    usageShare.set(shareRows);
  }

  private Counter attempts(String result) {
    return Counter.builder("arranger.scheduler.schedule.attempts")
        .description("Jobs the scheduler tried to place, by result")
        .tag("result", result)
        .register(registry);
  }

  @Override
  public void pluginOpened(String plugin, long nanos) {
    Timer.builder("arranger.scheduler.plugin.scheduling.duration")
        .tag("plugin", plugin)
        .tag("phase", "open")
        .serviceLevelObjectives(LatencyBuckets.STEP)
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void actionExecuted(String action, long nanos) {
    Timer.builder("arranger.scheduler.action.scheduling.duration")
        .tag("action", action)
        .serviceLevelObjectives(LatencyBuckets.STEP)
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void cycleCompleted(CycleResult result, long nanos) {
    cycle.record(nanos, TimeUnit.NANOSECONDS);
    for (JobDecision decision : result.decisions().values()) {
      switch (decision.state()) {
        case SCHEDULED_SUCCEED, SCHEDULED_PARTLY -> scheduled.increment();
        case SCHEDULED_FAILED -> failed.increment();
        case UNSCHEDULED -> unschedulable.increment();
        default -> {}
      }
    }
    Map<Tags, Double> pending = new HashMap<>();
    Map<Tags, Double> jobsByState = new HashMap<>();
    Map<Tags, Double> deservedRows = new HashMap<>();
    Map<Tags, Double> allocatedRows = new HashMap<>();
    Map<Tags, Double> guaranteeRows = new HashMap<>();
    Map<Tags, Double> overQuotaRows = new HashMap<>();
    for (QueueSummary queue : result.queues().values()) {
      pending.put(Tags.of("queue", queue.name()), (double) queue.unplacedJobs());
      jobsByState.put(
          Tags.of("queue", queue.name(), "state", "pending"), (double) queue.pendingJobs());
      jobsByState.put(
          Tags.of("queue", queue.name(), "state", "inqueue"), (double) queue.inqueueJobs());
      jobsByState.put(
          Tags.of("queue", queue.name(), "state", "running"), (double) queue.runningJobs());
      addResourceRows(deservedRows, queue.name(), queue.deserved());
      addResourceRows(allocatedRows, queue.name(), queue.allocated());
      addResourceRows(guaranteeRows, queue.name(), queue.guarantee());
      addResourceRows(overQuotaRows, queue.name(), queue.overQuota());
    }
    pendingJobs.set(pending);
    queueJobs.set(jobsByState);
    deserved.set(deservedRows);
    allocated.set(allocatedRows);
    guarantee.set(guaranteeRows);
    overQuota.set(overQuotaRows);
  }

  private static void addResourceRows(Map<Tags, Double> rows, String queue, Resource resource) {
    if (resource == null) {
      return;
    }
    for (Map.Entry<String, Long> entry : resource.quantities().entrySet()) {
      double value =
          entry.getKey().equals(Resource.CPU) ? entry.getValue() / 1000.0 : entry.getValue();
      rows.put(Tags.of("queue", queue, "resource", entry.getKey()), value);
    }
  }

  /** Pods chosen for eviction this cycle, by whether their whole job goes. */
  void victimsChosen(CycleResult result) {
    for (io.tyrl.arranger.scheduler.api.Victim victim : result.allVictims()) {
      Counter.builder("arranger.scheduler.preemption.victims")
          .description("Pods chosen for eviction by preempt or reclaim")
          .tag("scope", victim.wholeJob() ? "job" : "workers")
          .register(registry)
          .increment(victim.pods().size());
    }
  }

  /**
   * Observes, once per job, the time from its creation to the first decision that places it: a
   * decision with allocations for a job whose status held none. A job placed again after a
   * rescheduling is not observed again.
   */
  void jobsPlaced(
      Map<String, JobDecision> decisions, Map<String, V1alpha1TYJob> jobs, Instant now) {
    Set<String> present = new HashSet<>();
    for (Map.Entry<String, V1alpha1TYJob> entry : jobs.entrySet()) {
      V1alpha1TYJob job = entry.getValue();
      if (job.getMetadata() == null || job.getMetadata().getUid() == null) {
        continue;
      }
      String uid = job.getMetadata().getUid();
      present.add(uid);
      JobDecision decision = decisions.get(entry.getKey());
      boolean placed =
          decision != null
              && !decision.allocations().isEmpty()
              && (decision.state() == ScheduleState.SCHEDULED_SUCCEED
                  || decision.state() == ScheduleState.SCHEDULED_PARTLY);
      boolean heldNone =
          job.getStatus() == null
              || job.getStatus().getAllocations() == null
              || job.getStatus().getAllocations().isEmpty();
      if (placed
          && heldNone
          && job.getMetadata().getCreationTimestamp() != null
          && placedJobs.add(uid)) {
        Duration waited =
            Duration.between(job.getMetadata().getCreationTimestamp().toInstant(), now);
        if (!waited.isNegative()) {
          jobScheduling.record(waited);
        }
      }
    }
    placedJobs.retainAll(present);
  }

  /**
   * Per queue, the age of the oldest job that holds no placement and got none this cycle: what an
   * alert on jobs pending too long reads. Queues without such a job show 0.
   */
  void pendingAges(
      Map<String, JobDecision> decisions, Map<String, V1alpha1TYJob> jobs, Instant now) {
    Map<String, Double> oldest = new java.util.TreeMap<>();
    for (Map.Entry<String, V1alpha1TYJob> entry : jobs.entrySet()) {
      V1alpha1TYJob job = entry.getValue();
      String queue =
          job.getSpec() == null || job.getSpec().getQueue() == null
              ? TYJobDefaults.QUEUE
              : job.getSpec().getQueue();
      oldest.putIfAbsent(queue, 0.0);
      JobDecision decision = decisions.get(entry.getKey());
      boolean heldNone =
          job.getStatus() == null
              || job.getStatus().getAllocations() == null
              || job.getStatus().getAllocations().isEmpty();
      boolean stillNone = decision == null || decision.allocations().isEmpty();
      String stage =
          job.getStatus() == null || job.getStatus().getStage() == null
              ? ""
              : job.getStatus().getStage().getValue();
      boolean ended =
          stage.equals("Succeeded")
              || stage.equals("Failed")
              || (decision != null && decision.state() == ScheduleState.SCHEDULED_FAILED);
      if (heldNone
          && stillNone
          && !ended
          && job.getMetadata() != null
          && job.getMetadata().getCreationTimestamp() != null) {
        double age =
            Math.max(
                0,
                Duration.between(job.getMetadata().getCreationTimestamp().toInstant(), now)
                        .toMillis()
                    / 1000.0);
        oldest.merge(queue, age, Math::max);
      }
    }
    Map<Tags, Double> rows = new HashMap<>();
    oldest.forEach((queue, age) -> rows.put(Tags.of("queue", queue), age));
    oldestPending.set(rows);
  }

  void unreadableJobs(int count) {
    unreadable.increment(count);
  }

  void cycleFinished(Duration elapsed, ScheduleStatusWriter.Submission submission) {
    e2e.record(elapsed);
    writesDeferred.increment(submission.deferred());
  }

  /** How one status write ended; called from the writer thread that sent it. */
  public void statusWriteFinished(ScheduleStatusWriter.Kind kind, int events) {
    switch (kind) {
      case WRITTEN -> writes.increment();
      case FAILED -> writeFailures.increment();
      case CONFLICT -> writeConflicts.increment();
      case FENCED -> writesFenced.increment();
      case GONE -> writesToGoneJobs.increment();
    }
  }

  /** Reports the writes in flight (a gauge read at scrape time). */
  public void watchWriter(ScheduleStatusWriter writer) {
    Gauge.builder(
            "arranger.scheduler.status.writes.in.flight", writer, ScheduleStatusWriter::inFlight)
        .description("TYJob status writes handed to the writer threads and not yet answered")
        .register(registry);
  }

  void queueStatusWritten(QueueStatusWriter.Report report) {
    queueWrites.increment(report.written());
    queueWriteFailures.increment(report.failed());
    queueWriteConflicts.increment(report.conflicts());
  }

  void cycleFailed() {
    cycleFailures.increment();
  }
}
