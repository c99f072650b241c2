package io.tyrl.arranger.scheduler.sim;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plays the service layer across cycles without Kubernetes: each cycle's allocations and {@code
 * waitingSince} come back in the next snapshot, as they would through TYJob status. Failed jobs
 * leave the cluster. Nodes can be replaced between cycles (e.g. foreign pods leaving), jobs can
 * arrive and complete. Victims are deleted as the controller would: an evicted pod shows as
 * releasing on its node in the next {@code releaseCycles} snapshots, then it is gone. A job whose
 * decision said WaitingForVictims comes back with {@code awaitingVictims}, as the service layer
 * reads it from {@code status.scheduling.reason}.
 *
 * <p>With {@link #followingControllerStages()} it also plays the controller's stages: a job the
 * scheduler placed is Starting in the next snapshot and Running in the one after (its pods
 * started), a job evicted whole is Rescheduling, and so is a job {@link #reschedule rescheduled} by
 * hand; a job becoming Running records that cycle's time as its {@code runningSince}. Without it,
 * every job keeps the stage it was submitted with.
 */
public final class ClusterSimulator {

  private final Scheduler scheduler;
  private final SchedulerConfiguration configuration;
  private final int releaseCycles;
  private List<NodeInfo> nodes;
  private List<JobInfo> jobs;
  private List<QueueInfo> queues;

  /** namespace/pod → snapshots left in which the pod still shows as releasing. */
  private final Map<String, Integer> releasingLeft = new HashMap<>();

  private Snapshot lastSnapshot;
  private boolean controllerStages;

  public ClusterSimulator(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      List<NodeInfo> nodes,
      List<JobInfo> jobs,
      List<QueueInfo> queues) {
    this(scheduler, configuration, nodes, jobs, queues, 1);
  }

  public ClusterSimulator(
      Scheduler scheduler,
      SchedulerConfiguration configuration,
      List<NodeInfo> nodes,
      List<JobInfo> jobs,
      List<QueueInfo> queues,
      int releaseCycles) {
    this.scheduler = scheduler;
    this.configuration = configuration;
    this.nodes = List.copyOf(nodes);
    this.jobs = List.copyOf(jobs);
    this.queues = List.copyOf(queues);
    this.releaseCycles = releaseCycles;
  }

  /** Plays the controller's stages from now on (see the class comment). */
  public ClusterSimulator followingControllerStages() {
    this.controllerStages = true;
    return this;
  }

  public void replaceNodes(List<NodeInfo> newNodes) {
    this.nodes = List.copyOf(newNodes);
  }

  /** A queue is created (or replaced, when one of the name exists). */
  public void putQueue(QueueInfo queue) {
    List<QueueInfo> next = new ArrayList<>();
    for (QueueInfo existing : queues) {
      if (!existing.name().equals(queue.name())) {
        next.add(existing);
      }
    }
    next.add(queue);
    queues = List.copyOf(next);
  }

  /** A job arrives (submitted, all pods pending). */
  public void submit(JobInfo job) {
    List<JobInfo> next = new ArrayList<>(jobs);
    next.add(job);
    jobs = List.copyOf(next);
  }

  /** A job ends; its pods are gone by the next snapshot. */
  public void complete(String jobKey) {
    jobs = jobs.stream().filter(job -> !job.key().equals(jobKey)).toList();
  }

  public List<JobInfo> jobs() {
    return jobs;
  }

  public JobInfo job(String jobKey) {
    return jobs.stream()
        .filter(job -> job.key().equals(jobKey))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no job " + jobKey));
  }

  /**
   * A pod of a job is gone (deleted, its node lost): the controller removed its allocation, and it
   * is pending again.
   */
  public void losePod(String jobKey, String podName) {
    jobs =
        jobs.stream()
            .map(
                job ->
                    !job.key().equals(jobKey)
                        ? job
                        : withTasks(
                            job,
                            job.tasks().stream()
                                .map(
                                    task ->
                                        task.podName().equals(podName)
                                            ? task.withStatus(TaskStatus.PENDING, null)
                                            : task)
                                .toList(),
                            job.waitingSince(),
                            job.stage(),
                            job.awaitingVictims()))
            .toList();
  }

  /**
   * The controller reschedules a job (its leader was lost): every pod is given back and the job is
   * Rescheduling.
   */
  public void reschedule(String jobKey) {
    jobs =
        jobs.stream()
            .map(
                job ->
                    !job.key().equals(jobKey)
                        ? job
                        : withTasks(
                            job,
                            job.tasks().stream()
                                .map(task -> task.withStatus(TaskStatus.PENDING, null))
                                .toList(),
                            job.waitingSince(),
                            Stage.RESCHEDULING,
                            false))
            .toList();
  }

  /** The snapshot the last cycle ran on. */
  public Snapshot lastSnapshot() {
    return lastSnapshot;
  }

  public CycleResult cycle(Instant now) {
    lastSnapshot = new Snapshot(nodes, jobs, queues);
    CycleResult result = scheduler.runCycle(lastSnapshot, configuration, now);
    Set<String> evictedWhole = new HashSet<>();
    for (Victim victim : result.allVictims()) {
      if (victim.wholeJob()) {
        evictedWhole.add(victim.jobKey());
      }
      for (String pod : victim.pods()) {
        releasingLeft.put(victim.namespace() + "/" + pod, releaseCycles);
      }
    }
    List<JobInfo> next = new ArrayList<>();
    for (JobInfo job : jobs) {
      JobDecision decision = result.decision(job.key());
      if (decision.state() == ScheduleState.SCHEDULED_FAILED) {
        continue;
      }
      next.add(applied(job, decision, evictedWhole.contains(job.key()), now));
    }
    jobs = next;
    return result;
  }

  private JobInfo applied(JobInfo job, JobDecision decision, boolean evictedWhole, Instant now) {
    Map<String, String> allocations = decision.allocations();
    List<TaskInfo> tasks = new ArrayList<>();
    for (TaskInfo task : job.tasks()) {
      String node = allocations.get(task.podName());
      String key = job.namespace() + "/" + task.podName();
      Integer left = releasingLeft.get(key);
      if (node != null) {
        tasks.add(task.withStatus(TaskStatus.ALLOCATED, node));
      } else if (left != null && left > 0 && task.nodeName() != null) {
        releasingLeft.put(key, left - 1);
        tasks.add(task.withStatus(TaskStatus.RELEASING, task.nodeName()));
      } else {
        releasingLeft.remove(key);
        tasks.add(task.withStatus(TaskStatus.PENDING, null));
      }
    }
    Stage stage = nextStage(job, decision, evictedWhole);
    Instant runningSince =
        stage != Stage.RUNNING ? null : job.stage() == Stage.RUNNING ? job.runningSince() : now;
    return withTasks(
            job,
            tasks,
            decision.waitingSince(),
            stage,
            decision.reason() == ReasonCode.WAITING_FOR_VICTIMS)
        .toBuilder()
        .runningSince(controllerStages ? runningSince : job.runningSince())
        .gpuDevices(decision.gpuDevices())
        .topologyDomains(decision.topologyDomains())
        .build();
  }

  private Stage nextStage(JobInfo job, JobDecision decision, boolean evictedWhole) {
    if (!controllerStages) {
      return job.stage();
    }
    if (evictedWhole) {
      return Stage.RESCHEDULING;
    }
    boolean placed =
        decision.state() == ScheduleState.SCHEDULED_PARTLY
            || decision.state() == ScheduleState.SCHEDULED_SUCCEED;
    return switch (job.stage()) {
      case PENDING, RESCHEDULING -> placed ? Stage.STARTING : job.stage();
      case STARTING -> placed ? Stage.RUNNING : Stage.STARTING;
      case RUNNING -> Stage.RUNNING;
      case SUCCEEDED, FAILED -> job.stage();
    };
  }

  private static JobInfo withTasks(
      JobInfo job,
      List<TaskInfo> tasks,
      Instant waitingSince,
      Stage stage,
      boolean awaitingVictims) {
    return job.toBuilder()
        .tasks(tasks)
        .waitingSince(waitingSince)
        .stage(stage)
        .awaitingVictims(awaitingVictims)
        .build();
  }
}
