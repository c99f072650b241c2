package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Places pending pods the way Volcano's allocate does, one step at a time:
 *
 * <ol>
 *   <li>take the first queue in queue order (lowest share first); a queue that is overused is
 *       skipped for the rest of the cycle;
 *   <li>take its first job in job order;
 *   <li>a job whose gang minimum is not placed gets its minimum in one statement, kept only if the
 *       minimum is met (or its gang mode keeps partial placements) — all or nothing; a job in a
 *       gang group is placed together with every other member, kept only if every member's minimum
 *       is met;
 *   <li>a job whose minimum is placed gets <em>one</em> more pod (elastic);
 *   <li>the job goes back among its queue's jobs while it has pods to place, and the queue back
 *       among the queues, so that queues and jobs are ordered again by share after every pod.
 * </ol>
 *
 * So with two queues of weights 3 and 1 and an elastic GPU job each on 16 GPUs, the pods interleave
 * by share and the split is 12/4, not whichever job came first taking all. A pod is never placed
 * past its queue's {@code capability}. A pod of a job's minimum that fits only in room being
 * released is pipelined there (see {@link JobPlacer#placeMinimum}). Jobs the previous cycle left
 * waiting for victims have claimed the room being released for them before allocate runs ({@link
 * ResumeWaitingJobs}, its prerequisite), so allocate never pipelines another job onto it. A job
 * that throws is failed alone; the others go on.
 */
public final class AllocateAction implements Action {

  public static final String NAME = "allocate";

  private final PlacementOptions options;

  AllocateAction(Arguments arguments) {
    this.options = PlacementOptions.from(arguments);
  }

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, PlacementOptions.SCHEMA, AllocateAction::new);
  }

  @Override
  public List<Action> prerequisites() {
    return List.of(new ResumeWaitingJobs(options));
  }

  @Override
  public void execute(Session session) {
    new Pass(session, new JobPlacer(session, options)).run();
  }

  /** One run of the action: the queue and job orders it keeps up to date as pods are placed. */
  private static final class Pass {
    private final Session session;
    private final JobPlacer placer;
    private final Map<QueueState, PriorityQueue<JobState>> jobsByQueue = new HashMap<>();
    private final Map<String, List<JobState>> groups = new LinkedHashMap<>();
    private final PriorityQueue<QueueState> queues;
    private final Set<JobState> minimumTried = new HashSet<>();

    Pass(Session session, JobPlacer placer) {
      this.session = session;
      this.placer = placer;
      this.queues = new PriorityQueue<>(session::compareQueues);
      for (JobState job : session.jobs()) {
        job.info()
            .gangGroupKey()
            .ifPresent(group -> groups.computeIfAbsent(group, g -> new ArrayList<>()).add(job));
        if (job.isSchedulable() && job.hasPendingTasks()) {
          jobsByQueue
              .computeIfAbsent(job.queue(), q -> new PriorityQueue<>(session::compareJobs))
              .add(job);
        }
      }
      queues.addAll(jobsByQueue.keySet());
    }

    void run() {
      while (!queues.isEmpty()) {
        QueueState queue = queues.poll();
        PriorityQueue<JobState> jobs = jobsByQueue.get(queue);
        if (session.tiers().isOverused(queue)) {
          noteOverused(queue, jobs);
          jobs.clear();
          continue;
        }
        JobState job = jobs.poll();
        if (job != null && job.isSchedulable() && job.hasPendingTasks()) {
          step(job);
        }
        if (!jobs.isEmpty() && !queues.contains(queue)) {
          queues.add(queue);
        }
      }
    }

    /**
     * Places the job's minimum, or one elastic pod once the minimum is met; puts the job back while
     * it may take more.
     */
    private void step(JobState job) {
      if (placer.isReady(job)) {
        if (placeNext(job)) {
          requeue(job);
        }
        return;
      }
      if (!minimumTried.add(job)) {
        return;
      }
      String group = job.info().gangGroupKey().orElse(null);
      if (group == null) {
        if (placeMinimum(job)) {
          requeue(job);
        }
        return;
      }
      List<JobState> members = new ArrayList<>(groups.get(group));
      members.sort(session::compareJobs);
      minimumTried.addAll(members);
      Set<QueueState> touched = new HashSet<>();
      for (JobState member : members) {
        if (member.queue() != null && jobsByQueue.containsKey(member.queue())) {
          jobsByQueue.get(member.queue()).remove(member);
          touched.add(member.queue());
        }
      }
      boolean placed = new GangGroupPlacer(session, placer).place(group, members);
      for (QueueState other : touched) {
        // Members' placements changed other queues' shares while those queues sat in the order:
        // re-sort them.
        if (queues.remove(other)) {
          queues.add(other);
        }
      }
      if (placed) {
        for (JobState member : members) {
          requeue(member);
        }
      }
    }

    private boolean placeMinimum(JobState job) {
      return session.forOneJob(
          job,
          "scheduling",
          () -> {
            // Asked before the statement opens, so that a shortage it finds stays remembered for
            // the next jobs.
            Optional<JobPlacer.Outcome> shortOfRoom = placer.checkRoom(job);
            Statement statement = session.newStatement();
            return placer.settle(
                job,
                statement,
                shortOfRoom.isPresent() ? shortOfRoom.get() : placer.placeMinimum(job, statement));
          });
    }

    /** One elastic pod; false when the job can take no more in this cycle (its note says why). */
    private boolean placeNext(JobState job) {
      return session.forOneJob(
          job,
          "scheduling",
          () -> {
            Statement statement = session.newStatement();
            JobPlacer.Outcome outcome = placer.placeNext(job, statement);
            statement.commit();
            if (!(outcome instanceof JobPlacer.Placed)) {
              JobPlacer.note(job, PlacementSummary.describe(job) + outcome.explanation());
              return false;
            }
            return true;
          });
    }

    /**
     * Puts a job with pods left back among its queue's jobs, and its queue back among the queues.
     */
    private void requeue(JobState job) {
      if (!job.isSchedulable() || !job.hasPendingTasks()) {
        return;
      }
      PriorityQueue<JobState> jobs =
          jobsByQueue.computeIfAbsent(job.queue(), q -> new PriorityQueue<>(session::compareJobs));
      jobs.add(job);
      if (!queues.contains(job.queue())) {
        queues.add(job.queue());
      }
    }

    private void noteOverused(QueueState queue, PriorityQueue<JobState> jobs) {
      String message =
          "queue " + queue.name() + " has reached its deserved share (" + queue.deserved() + ")";
      for (JobState job : jobs) {
        if (job.isFailed()) {
          continue;
        }
        String placed = job.placedTasks() > 0 ? PlacementSummary.describe(job) + "; " : "";
        job.note(new JobNote(ReasonCode.QUEUE_OVERUSED, placed + message));
      }
    }
  }
}
