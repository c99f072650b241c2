package io.tyrl.arranger.scheduler.sim;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ScheduleState;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plays the service layer across cycles without Kubernetes: each cycle's allocations and
 * {@code reservedSince} come back in the next snapshot, as they would through TYJob status. Failed
 * jobs leave the cluster. Nodes can be replaced between cycles (e.g. foreign pods leaving).
 */
public final class ClusterSimulator {

  private final Scheduler scheduler;
  private final SchedulerConfiguration configuration;
  private List<NodeInfo> nodes;
  private List<JobInfo> jobs;
  private final List<QueueInfo> queues;

  public ClusterSimulator(Scheduler scheduler, SchedulerConfiguration configuration, List<NodeInfo> nodes, List<JobInfo> jobs,
      List<QueueInfo> queues) {
    this.scheduler = scheduler;
    this.configuration = configuration;
    this.nodes = List.copyOf(nodes);
    this.jobs = List.copyOf(jobs);
    this.queues = List.copyOf(queues);
  }

  public void replaceNodes(List<NodeInfo> newNodes) {
    this.nodes = List.copyOf(newNodes);
  }

  public CycleResult cycle(Instant now) {
    CycleResult result = scheduler.runCycle(new Snapshot(nodes, jobs, queues), configuration, now);
    List<JobInfo> next = new ArrayList<>();
    for (JobInfo job : jobs) {
      JobDecision decision = result.decision(job.key());
      if (decision.state() == ScheduleState.SCHEDULED_FAILED) {
        continue;
      }
      next.add(applied(job, decision));
    }
    jobs = next;
    return result;
  }

  private static JobInfo applied(JobInfo job, JobDecision decision) {
    Map<String, String> allocations = decision.allocations();
    List<TaskInfo> tasks = new ArrayList<>();
    for (TaskInfo task : job.tasks()) {
      String node = allocations.get(task.podName());
      tasks.add(node == null ? task.withStatus(TaskStatus.PENDING, null) : task.withStatus(TaskStatus.ALLOCATED, node));
    }
    return new JobInfo(job.namespace(), job.name(), job.uid(), job.queue(), job.priority(), job.creationTime(),
        job.minWorkersNum(), job.basicPolicy(), job.jobQueuePolicy(), job.gang(), decision.reservedSince(), tasks);
  }
}
