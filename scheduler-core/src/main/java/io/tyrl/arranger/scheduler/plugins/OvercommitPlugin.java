package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.Optional;

/**
 * Enqueue admits a job only if the cluster has room for its minimum (Volcano's overcommit plugin):
 * per resource, {@code minimum ≤ factor × allocatable − used + releasing − pipelined − Σ minimums
 * of the jobs enqueued before it in this cycle}, summed over all nodes. The check is coarse on
 * purpose — where the pods fit is the predicates' business — and with {@code factor} above 1 it
 * lets a little more in than is free, as Volcano's default 1.2 does. Arranger's default is 1: a
 * Strict gang whose minimum exceeds the free room cannot be met in this cycle anyway, and keeping
 * it out of the queue's enqueued minimums lets smaller jobs in. A refused job is not enqueued, so
 * it neither reclaims nor preempts: configurations that evict leave this plugin out ({@code
 * config/scheduler/preempt-reclaim.yaml}).
 *
 * <p>Room that other queues hold above their deserved shares counts as room for a job whose queue
 * is still below its own, up to what that queue is owed: reclaim gives that room back, and a job
 * kept out here could never reclaim it. Without it, the first job on an idle cluster would keep
 * every later queue's jobs out for as long as it runs. Minimums enqueued before in this cycle use
 * up the free room, never below nothing: those of other queues beyond it count on their own queues'
 * claims, not on what this job's queue is owed.
 *
 * <p>NonStrict gangs pass unchecked: their reservation is meant to grow as room frees (the gang
 * plugin bounds the deadlock this risks). A job whose minimum fits no node even empty never reaches
 * this check: enqueue fails it with {@code NeverFits} first. A pod outside the minimum that can
 * never fit excuses nothing: the minimum must still fit the room.
 */
public final class OvercommitPlugin implements Plugin {

  public static final String NAME = "overcommit";

  public static final ArgumentSpec<Double> FACTOR = ArgumentSpec.decimal("factor", 1, 1, 10);

  private final double factor;
  private Session session;
  private long[] room;

  /**
   * Per resource, what all reclaimable queues hold above their shares; summed at the first enqueue
   * check (shares are set by then whatever the plugins' order, and enqueue places nothing).
   */
  private long[] surplusAboveShares;

  OvercommitPlugin(Arguments arguments) {
    this.factor = arguments.get(FACTOR);
  }

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.of(FACTOR), OvercommitPlugin::new);
  }

  @Override
  public void onSessionOpen(Session openedSession, PluginHooks hooks) {
    this.session = openedSession;
    int size = session.dimensions().size();
    room = new long[size];
    long[] committed = new long[size];
    for (NodeState node : session.nodes()) {
      for (int d = 0; d < size; d++) {
        committed[d] += node.used(d) - node.releasing(d) + node.pipelined(d);
      }
    }
    for (int d = 0; d < size; d++) {
      room[d] = (long) Math.floor(factor * session.clusterAllocatable(d)) - committed[d];
    }
    hooks.jobEnqueueable(this::refusal);
  }

  private Optional<String> refusal(JobState job) {
    if (job.info().gang().mode() == GangMode.NON_STRICT) {
      return Optional.empty();
    }
    long[] minimum = job.minimumRequest();
    ResourceDimensions dimensions = session.dimensions();
    StringBuilder missing = new StringBuilder();
    for (int d = 0; d < minimum.length; d++) {
      long free = Math.max(0, room[d] - session.clusterInqueue(d)) + reclaimableFor(job.queue(), d);
      if (d != ResourceDimensions.PODS && minimum[d] > 0 && minimum[d] > free) {
        String name = dimensions.name(d);
        missing
            .append(missing.length() == 0 ? "" : ", ")
            .append(name)
            .append(' ')
            .append(Resource.formatQuantity(name, minimum[d]))
            .append(" > ")
            .append(Resource.formatQuantity(name, Math.max(0, free)));
      }
    }
    if (missing.length() == 0) {
      return Optional.empty();
    }
    return Optional.of("the cluster's free room cannot hold the job's minimum (" + missing + ")");
  }

  /**
   * Room other queues hold above their deserved shares, as far as the job's queue is still owed its
   * own: reclaim can give it back, so it is room the job's queue can have. Without a plugin that
   * sets shares, nothing is owed and nothing counts.
   */
  private long reclaimableFor(QueueState queue, int dimension) {
    long owed = owed(queue, dimension);
    if (owed <= 0) {
      return 0;
    }
    if (surplusAboveShares == null) {
      surplusAboveShares = new long[session.dimensions().size()];
      for (QueueState other : session.queues()) {
        for (int d = 0; d < surplusAboveShares.length; d++) {
          surplusAboveShares[d] += surplusAboveShare(other, d);
        }
      }
    }
    return Math.min(owed, surplusAboveShares[dimension] - surplusAboveShare(queue, dimension));
  }

  /** What a reclaimable leaf queue holds above its deserved share; 0 for any other queue. */
  private long surplusAboveShare(QueueState queue, int dimension) {
    return queue.isLeaf() && queue.info().reclaimable() && !queue.deserved().isEmpty()
        ? Math.max(0, queue.allocated(dimension) - deservedOf(queue, dimension))
        : 0;
  }

  private long owed(QueueState queue, int dimension) {
    if (queue.deserved().isEmpty()) {
      return 0;
    }
    return deservedOf(queue, dimension) - queue.allocated(dimension) - queue.inqueue(dimension);
  }

  private long deservedOf(QueueState queue, int dimension) {
    return queue.deserved().get(session.dimensions().name(dimension));
  }
}
