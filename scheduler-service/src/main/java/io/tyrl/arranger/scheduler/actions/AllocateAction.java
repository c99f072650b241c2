package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Places pending pods, kube-batch style: take the first queue in queue order; skip it for the rest of
 * the cycle once it is overused; take its first job in job order; place the job's pending pods in one
 * statement; keep the statement if the job's minimum is met (or its gang mode keeps partial
 * placements), else discard it; put the queue back. A job in a gang group is placed together with
 * every other member, in one statement kept only if every member's minimum is met. A job that
 * throws is failed alone; the others go on.
 */
public final class AllocateAction implements Action {

  public static final String NAME = "allocate";

  private final PlacementOptions options;

  AllocateAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, ArgumentSchema.of(PlacementOptions.PERCENTAGE_OF_NODES_TO_SCORE,
        PlacementOptions.MIN_FEASIBLE_NODES_TO_FIND), AllocateAction::new);
  }

  @Override
  public void execute(Session session) {
    JobPlacer placer = new JobPlacer(session, options);
    Map<QueueState, PriorityQueue<JobState>> jobsByQueue = new HashMap<>();
    Map<String, List<JobState>> groups = new LinkedHashMap<>();
    for (JobState job : session.jobs()) {
      job.info().gang().groupIfSet().ifPresent(group -> groups.computeIfAbsent(group, g -> new ArrayList<>()).add(job));
      if (job.isSchedulable() && job.hasPendingTasks()) {
        jobsByQueue.computeIfAbsent(job.queue(), q -> new PriorityQueue<>(session::compareJobs)).add(job);
      }
    }
    PriorityQueue<QueueState> queues = new PriorityQueue<>(session::compareQueues);
    queues.addAll(jobsByQueue.keySet());
    Set<JobState> handled = new HashSet<>();
    while (!queues.isEmpty()) {
      QueueState queue = queues.poll();
      PriorityQueue<JobState> jobs = jobsByQueue.get(queue);
      if (session.tiers().isOverused(queue)) {
        noteOverused(session, queue, jobs, handled);
        continue;
      }
      JobState job = jobs.poll();
      while (job != null && handled.contains(job)) {
        job = jobs.poll();
      }
      if (job == null) {
        continue;
      }
      String group = job.info().gang().group();
      if (group == null) {
        handled.add(job);
        placeAlone(session, placer, job);
      } else {
        List<JobState> members = new ArrayList<>(groups.get(group));
        members.sort(session::compareJobs);
        handled.addAll(members);
        new GangGroupPlacer(session, placer).place(group, members);
      }
      if (!jobs.isEmpty()) {
        queues.add(queue);
      }
    }
  }

  private static void placeAlone(Session session, JobPlacer placer, JobState job) {
    Statement statement = session.newStatement();
    try {
      JobPlacer.Outcome outcome = placer.placePending(job, statement, task -> true);
      placer.settle(job, statement, outcome);
    } catch (RuntimeException e) {
      if (!statement.isClosed()) {
        statement.discard();
      }
      session.failJob(job, ReasonCode.INVALID_JOB, "scheduling the job failed: " + e);
    }
  }

  private static void noteOverused(Session session, QueueState queue, PriorityQueue<JobState> jobs, Set<JobState> handled) {
    String message = "queue " + queue.name() + " has reached its deserved share (" + queue.deserved() + ")";
    for (JobState job : jobs) {
      if (!handled.contains(job)) {
        job.note(new JobNote(ReasonCode.QUEUE_OVERUSED, message));
      }
    }
  }
}
