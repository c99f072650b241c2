package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a finished session into decisions:
 *
 * <ul>
 *   <li>a failed job → ScheduledFailed with no allocations;
 *   <li>nothing placed, or a minimum not met (a NonStrict reservation) → Unscheduled;
 *   <li>minimum met → ScheduledPartly until every pod is placed, then ScheduledSucceed.
 * </ul>
 *
 * Pods being evicted (releasing) are not reported as allocations, and neither are pipelined ones:
 * the service layer creates a pod for every allocation, while a pipelined pod must wait until its
 * victims are gone. A job with pipelined pods is Unscheduled, waiting for its victims, whatever
 * else it holds. A job still waiting for its gang minimum carries when that wait began ({@code
 * waitingSince}); a job whose minimum is placed, or has run, carries none.
 */
final class DecisionDeriver {

  private DecisionDeriver() {}

  static Map<String, JobDecision> decisions(Session session) {
    Map<String, JobDecision> decisions = new LinkedHashMap<>();
    for (JobState job : session.jobs()) {
      decisions.put(job.key(), decide(session, job));
    }
    return decisions;
  }

  /** Built immutable at once: JobDecision keeps it as it is instead of copying a mutable map. */
  private static Map<String, String> allocations(JobState job) {
    List<TaskState> tasks = job.tasks();
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries = new Map.Entry[tasks.size()];
    int allocated = 0;
    for (TaskState task : tasks) {
      if (task.status() == TaskStatus.ALLOCATED) {
        entries[allocated++] = Map.entry(task.podName(), task.node().name());
      }
    }
    return allocated == 0 ? Map.of() : Map.ofEntries(Arrays.copyOf(entries, allocated));
  }

  /**
   * Each pod on a node holding part of one GPU → the device it is seated on: the placed ones, and
   * those being evicted, whose share stays on that device until the pod is gone.
   */
  private static Map<String, Integer> gpuDevices(JobState job) {
    Map<String, Integer> seats = null;
    for (TaskState task : job.tasks()) {
      int device =
          task.status() == TaskStatus.ALLOCATED || task.status() == TaskStatus.RELEASING
              ? task.sharedGpuDevice()
              : -1;
      if (device >= 0) {
        if (seats == null) {
          seats = new HashMap<>();
        }
        seats.put(task.podName(), device);
      }
    }
    return seats == null ? Map.of() : seats;
  }

  /**
   * The domains, by level, of the node the job's leader is placed on, for the levels the job asks;
   * while its leader is not placed, the ones recorded before, so that a job placed again from
   * nothing still knows where it was.
   */
  private static Map<String, String> topologyDomains(JobState job) {
    TopologyRequest topology = job.info().topology();
    if (topology.isEmpty()) {
      return Map.of();
    }
    TaskState leader = job.leader();
    Map<String, String> domains = new HashMap<>();
    for (String level : new String[] {topology.required(), topology.preferred()}) {
      String domain =
          level == null
              ? null
              : leader.status() == TaskStatus.ALLOCATED
                  ? leader.node().info().labels().get(level)
                  : job.info().topologyDomains().get(level);
      if (domain != null) {
        domains.put(level, domain);
      }
    }
    return domains;
  }

  static JobDecision decide(Session session, JobState job) {
    if (job.isFailed()) {
      return new JobDecision(
          ScheduleState.SCHEDULED_FAILED,
          Map.of(),
          job.failure().reason(),
          job.failure().message(),
          null);
    }
    Map<String, String> allocations = allocations(job);
    Map<String, Integer> gpuDevices = gpuDevices(job);
    Map<String, String> topologyDomains = topologyDomains(job);
    if (job.isWaitingForVictims()) {
      JobNote note =
          job.note() != null
              ? job.note()
              : new JobNote(
                  ReasonCode.WAITING_FOR_VICTIMS,
                  PlacementSummary.describe(job, "pipelined") + " onto resources being released");
      return new JobDecision(
          ScheduleState.UNSCHEDULED,
          allocations,
          note.reason(),
          note.message(),
          waitingSince(session, job),
          gpuDevices,
          topologyDomains);
    }
    boolean ready = job.placedTasks() > 0 && session.isJobReady(job);
    if (ready && job.isFullyPlaced()) {
      return new JobDecision(
          ScheduleState.SCHEDULED_SUCCEED,
          allocations,
          null,
          "",
          null,
          gpuDevices,
          topologyDomains);
    }
    if (ready) {
      JobNote note = job.note() != null ? job.note() : notConsidered(job);
      return new JobDecision(
          ScheduleState.SCHEDULED_PARTLY,
          allocations,
          note.reason(),
          note.message(),
          null,
          gpuDevices,
          topologyDomains);
    }
    JobNote note = withEvictionMiss(job);
    return new JobDecision(
        ScheduleState.UNSCHEDULED,
        allocations,
        note.reason(),
        note.message(),
        waitingSince(session, job),
        gpuDevices,
        topologyDomains);
  }

  /**
   * The job's note, followed by why evicting for it found no room when a search missed; a job no
   * action looked at says so.
   */
  private static JobNote withEvictionMiss(JobState job) {
    JobNote note = job.note();
    String miss = job.evictionMiss();
    if (miss == null) {
      return note != null ? note : notConsidered(job);
    }
    return note != null
        ? new JobNote(note.reason(), note.message() + "; " + miss)
        : new JobNote(ReasonCode.UNSCHEDULABLE, PlacementSummary.describe(job) + "; " + miss);
  }

  private static JobNote notConsidered(JobState job) {
    return new JobNote(
        ReasonCode.UNSCHEDULABLE,
        PlacementSummary.describe(job) + "; not considered in this cycle");
  }

  /** For a job whose minimum is not placed: when its wait began (null once the minimum has run). */
  private static Instant waitingSince(Session session, JobState job) {
    return job.info().minimumHasRun() ? null : job.info().waitStart(session.now());
  }

  /**
   * Each queue's summary: counts of its jobs by where they stand (failed jobs in none; a queue with
   * children counts its subtree's), what it holds and deserves, its guarantee and the part it holds
   * above it, whether it is overused, and what is wrong with its place in the tree — what its
   * status shows and its metrics export.
   */
  static Map<String, QueueSummary> queues(Session session) {
    ResourceDimensions dimensions = session.dimensions();
    Map<QueueState, int[]> counts = new java.util.HashMap<>();
    for (JobState job : session.jobs()) {
      if (job.queue() == null || job.isFailed()) {
        continue;
      }
      int standing = standing(session, job);
      for (QueueState level : job.queue().selfAndAncestors()) {
        int[] count = counts.computeIfAbsent(level, q -> new int[4]);
        count[standing]++;
        if (!job.isFullyPlaced()) {
          count[3]++;
        }
      }
    }
    Map<String, QueueSummary> summaries = new LinkedHashMap<>();
    for (QueueState queue : session.queues()) {
      long[] allocated = new long[dimensions.size()];
      long[] overQuota = new long[dimensions.size()];
      boolean holds = false;
      for (int d = 0; d < allocated.length; d++) {
        allocated[d] = queue.allocated(d);
        holds |= d != ResourceDimensions.PODS && allocated[d] > 0;
        if (d != ResourceDimensions.PODS) {
          overQuota[d] = Math.max(0, allocated[d] - queue.guarantee(d));
        }
      }
      int[] count = counts.getOrDefault(queue, new int[4]);
      summaries.put(
          queue.name(),
          new QueueSummary(
              queue.name(),
              queue.deserved(),
              dimensions.resourceWithoutPods(allocated),
              count[PENDING],
              count[INQUEUE],
              count[RUNNING],
              holds && session.tiers().isOverused(queue),
              count[3],
              queue.parent() == null ? queue.info().parent() : queue.parent().name(),
              queue.info().guarantee(),
              dimensions.resourceWithoutPods(overQuota),
              queue.problem()));
    }
    return summaries;
  }

  private static final int PENDING = 0;
  private static final int INQUEUE = 1;
  private static final int RUNNING = 2;

  /**
   * Running once its minimum is placed; pending while enqueue refuses it and it holds nothing;
   * inqueue otherwise.
   */
  private static int standing(Session session, JobState job) {
    if (job.placedTasks() > 0 && session.isJobReady(job)) {
      return RUNNING;
    }
    return job.isEnqueueRefused() && job.placedTasks() == 0 ? PENDING : INQUEUE;
  }
}
