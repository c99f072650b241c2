package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.Action;
import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.Optional;

/**
 * Lets a waiting job into the cycle only once its queue can hold its minimum (kube-batch's delay of
 * pod creation). Queues in queue order, jobs in job order; each admitted job's minimum is counted
 * against its queue before the next is judged. Jobs that already hold pods are in already.
 *
 * <p>A job whose minimum can never fit the cluster's nodes, even empty — a pod larger than every
 * node, or asking for a resource no node has (a GPU job in a cluster without GPU nodes) — fails
 * here with {@code NeverFits}, as allocate would fail it, rather than wait as {@code NotEnqueued}
 * because the queue or the cluster cannot hold a resource it has none of.
 */
public final class EnqueueAction implements Action {

  public static final String NAME = "enqueue";

  public static ActionDescriptor descriptor() {
    return new ActionDescriptor(NAME, ArgumentSchema.NONE, arguments -> new EnqueueAction());
  }

  @Override
  public void execute(Session session) {
    for (QueueState queue : session.queuesInOrder()) {
      for (JobState job :
          session.jobsInOrder(
              queue,
              job -> job.isSchedulable() && job.hasPendingTasks() && job.placedTasks() == 0)) {
        session.forOneJob(
            job,
            "enqueueing",
            () -> {
              Optional<JobPlacer.NeverFits> never = JobPlacer.minimumNeverFits(session, job);
              if (never.isPresent()) {
                session.failJob(job, ReasonCode.NEVER_FITS, never.get().reason());
                return;
              }
              Optional<String> refusal = session.tiers().enqueueRefusal(job);
              if (refusal.isPresent()) {
                session.refuseEnqueue(job, refusal.get());
              } else {
                session.recordEnqueued(job);
              }
            });
      }
    }
  }
}
