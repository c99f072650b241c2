package io.tyrl.arranger.scheduler.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.kube.QueueStatusWriter;
import io.tyrl.arranger.scheduler.kube.ScheduleStatusWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's Prometheus metrics, named after Volcano's and kube-scheduler's:
 * {@code arranger_scheduler_e2e_scheduling_duration_seconds} (a whole cycle, writes included),
 * {@code arranger_scheduler_cycle_duration_seconds} (the core alone), per action and per plugin
 * durations, {@code arranger_scheduler_schedule_attempts_total{result}}, pending jobs and
 * deserved/allocated resources per queue, and status writes.
 */
public final class SchedulerMetrics implements CycleListener {

  private final MeterRegistry registry;
  private final Timer e2e;
  private final Timer cycle;
  private final Counter scheduled;
  private final Counter unschedulable;
  private final Counter failed;
  private final Counter unreadable;
  private final Counter cycleFailures;
  private final Counter writes;
  private final Counter writeFailures;
  private final Counter writeConflicts;
  private final Counter writesFenced;
  private final Counter queueWrites;
  private final Counter queueWriteFailures;
  private final Counter queueWriteConflicts;
  private final MultiGauge pendingJobs;
  private final MultiGauge queueJobs;
  private final MultiGauge deserved;
  private final MultiGauge allocated;

  public SchedulerMetrics(MeterRegistry registry) {
    this.registry = registry;
    e2e = Timer.builder("arranger.scheduler.e2e.scheduling.duration")
        .description("A whole scheduling cycle: snapshot, actions and status writes")
        .publishPercentiles(0.5, 0.99).register(registry);
    cycle = Timer.builder("arranger.scheduler.cycle.duration")
        .description("The scheduling core's part of a cycle: session, plugins and actions")
        .publishPercentiles(0.5, 0.99).register(registry);
    scheduled = attempts("scheduled");
    unschedulable = attempts("unschedulable");
    failed = attempts("failed");
    unreadable = attempts("error");
    cycleFailures = Counter.builder("arranger.scheduler.cycle.failures")
        .description("Cycles that ended in an error; the loop goes on").register(registry);
    writes = Counter.builder("arranger.scheduler.status.writes").tag("result", "written").register(registry);
    writeFailures = Counter.builder("arranger.scheduler.status.writes").tag("result", "failed").register(registry);
    writeConflicts = Counter.builder("arranger.scheduler.status.writes").tag("result", "conflict")
        .description("Decisions dropped because the job changed since they were made").register(registry);
    writesFenced = Counter.builder("arranger.scheduler.status.writes").tag("result", "fenced")
        .description("Writes not sent because this replica may no longer write as leader").register(registry);
    queueWrites = Counter.builder("arranger.scheduler.queue.status.writes").tag("result", "written")
        .description("Queue status patches, sent only when a queue's status changed").register(registry);
    queueWriteFailures = Counter.builder("arranger.scheduler.queue.status.writes").tag("result", "failed")
        .register(registry);
    queueWriteConflicts = Counter.builder("arranger.scheduler.queue.status.writes").tag("result", "conflict")
        .register(registry);
    pendingJobs = MultiGauge.builder("arranger.scheduler.pending.jobs")
        .description("Jobs not fully placed, per queue").register(registry);
    queueJobs = MultiGauge.builder("arranger.scheduler.queue.jobs")
        .description("Jobs per queue as its status counts them: pending (not admitted), inqueue (admitted, minimum not placed), running (minimum placed)")
        .register(registry);
    deserved = MultiGauge.builder("arranger.scheduler.queue.deserved")
        .description("A queue's deserved share, per resource (cpu in cores, memory in bytes)").register(registry);
    allocated = MultiGauge.builder("arranger.scheduler.queue.allocated")
        .description("Resources placed for a queue's jobs, per resource (cpu in cores, memory in bytes)")
        .register(registry);
  }

  private Counter attempts(String result) {
    return Counter.builder("arranger.scheduler.schedule.attempts")
        .description("Jobs the scheduler tried to place, by result").tag("result", result).register(registry);
  }

  @Override
  public void pluginOpened(String plugin, long nanos) {
    Timer.builder("arranger.scheduler.plugin.scheduling.duration").tag("plugin", plugin).tag("phase", "open")
        .register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void actionExecuted(String action, long nanos) {
    Timer.builder("arranger.scheduler.action.scheduling.duration").tag("action", action)
        .register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void cycleCompleted(CycleResult result, long nanos) {
    cycle.record(nanos, TimeUnit.NANOSECONDS);
    for (JobDecision decision : result.decisions().values()) {
      switch (decision.state()) {
        case SCHEDULED_SUCCEED, SCHEDULED_PARTLY -> scheduled.increment();
        case SCHEDULED_FAILED -> failed.increment();
        case UNSCHEDULED -> unschedulable.increment();
        default -> { }
      }
    }
    List<MultiGauge.Row<?>> pending = new ArrayList<>();
    List<MultiGauge.Row<?>> jobsByState = new ArrayList<>();
    List<MultiGauge.Row<?>> deservedRows = new ArrayList<>();
    List<MultiGauge.Row<?>> allocatedRows = new ArrayList<>();
    for (QueueSummary queue : result.queues().values()) {
      pending.add(MultiGauge.Row.of(Tags.of("queue", queue.name()), queue.unplacedJobs()));
      jobsByState.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "pending"), queue.pendingJobs()));
      jobsByState.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "inqueue"), queue.inqueueJobs()));
      jobsByState.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "running"), queue.runningJobs()));
      addResourceRows(deservedRows, queue.name(), queue.deserved());
      addResourceRows(allocatedRows, queue.name(), queue.allocated());
    }
    pendingJobs.register(pending, true);
    queueJobs.register(jobsByState, true);
    deserved.register(deservedRows, true);
    allocated.register(allocatedRows, true);
  }

  private static void addResourceRows(List<MultiGauge.Row<?>> rows, String queue, Resource resource) {
    if (resource == null) {
      return;
    }
    for (Map.Entry<String, Long> entry : resource.quantities().entrySet()) {
      double value = entry.getKey().equals(Resource.CPU) ? entry.getValue() / 1000.0 : entry.getValue();
      rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "resource", entry.getKey()), value));
    }
  }

  /** Pods chosen for eviction this cycle, by whether their whole job goes. */
  void victimsChosen(CycleResult result) {
    for (io.tyrl.arranger.scheduler.api.Victim victim : result.allVictims()) {
      Counter.builder("arranger.scheduler.preemption.victims")
          .description("Pods chosen for eviction by preempt or reclaim")
          .tag("scope", victim.wholeJob() ? "job" : "workers")
          .register(registry).increment(victim.pods().size());
    }
  }

  void unreadableJobs(int count) {
    unreadable.increment(count);
  }

  void cycleFinished(Duration elapsed, ScheduleStatusWriter.WriteReport report) {
    e2e.record(elapsed);
    writes.increment(report.written());
    writeFailures.increment(report.failed());
    writeConflicts.increment(report.conflicts());
    writesFenced.increment(report.fenced());
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
