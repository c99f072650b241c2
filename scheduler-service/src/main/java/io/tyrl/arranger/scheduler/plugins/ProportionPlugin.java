package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Shares the cluster between queues (seed 002 §2.2, seed 003).
 *
 * <p><b>Deserved</b> — weighted water-filling, per resource, in exact integers: start with the
 * cluster's total allocatable as {@code remaining}; in each round every queue not yet satisfied gets
 * {@code floor(remaining × weight / Σ weights of unsatisfied queues)} added, then capped per resource by
 * what its jobs request and by its capability; a queue whose deserved covers its request, or that
 * gained nothing, is satisfied; what was handed out leaves {@code remaining}; rounds stop when nothing
 * is left or nothing moved. With nodes 6 cpu/15Gi and 3 cpu/12Gi and queues of weight 2 and 4
 * requesting 5 cpu/10Gi and 10 cpu/20Gi, the first round gives 3 cpu/9Gi and 6 cpu/18Gi.
 *
 * <p><b>Overused</b> — a queue whose allocation has reached its deserved share in every resource it
 * deserves is skipped for the rest of the cycle. Queues are served lowest {@code allocated/deserved} first.
 *
 * <p><b>Enqueue</b> — a job enters only if its queue can hold its minimum: allocated + already
 * enqueued + minimum must stay within the capability (where set) and the cluster's total. A minimum
 * above the capability can never fit, and the job fails with {@code NeverFits}.
 */
public final class ProportionPlugin implements Plugin {

  public static final String NAME = "proportion";

  private Session session;
  private final Map<QueueState, long[]> deserved = new HashMap<>();

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new ProportionPlugin());
  }

  @Override
  public void onSessionOpen(Session openedSession, PluginHooks hooks) {
    this.session = openedSession;
    computeDeserved();
    failMinimumsAboveCapability();
    hooks.queueOrder(this::compareShares);
    hooks.overused(this::isOverused);
    hooks.jobEnqueueable(this::enqueueRefusal);
    hooks.reclaimableVictims(this::reclaimable);
  }

  private void computeDeserved() {
    ResourceDimensions dimensions = session.dimensions();
    int size = dimensions.size();
    long[] remaining = new long[size];
    for (int d = 0; d < size; d++) {
      remaining[d] = d == ResourceDimensions.PODS ? 0 : session.clusterAllocatable(d);
    }
    List<QueueState> unsatisfied = new ArrayList<>();
    for (QueueState queue : session.queues()) {
      deserved.put(queue, new long[size]);
      if (hasRequest(queue)) {
        unsatisfied.add(queue);
      }
    }
    unsatisfied.sort((a, b) -> a.name().compareTo(b.name()));
    while (!unsatisfied.isEmpty() && !isZero(remaining)) {
      long totalWeight = 0;
      for (QueueState queue : unsatisfied) {
        totalWeight += queue.info().weight();
      }
      long[] handedOut = new long[size];
      List<QueueState> satisfied = new ArrayList<>();
      for (QueueState queue : unsatisfied) {
        long[] share = deserved.get(queue);
        boolean gained = false;
        boolean covers = true;
        for (int d = 0; d < size; d++) {
          if (d == ResourceDimensions.PODS) {
            continue;
          }
          long offered = BigInteger.valueOf(remaining[d]).multiply(BigInteger.valueOf(queue.info().weight()))
              .divide(BigInteger.valueOf(totalWeight)).longValueExact();
          long capped = Math.min(share[d] + offered, cap(queue, d));
          if (capped > share[d]) {
            handedOut[d] += capped - share[d];
            share[d] = capped;
            gained = true;
          }
          covers &= share[d] >= queue.requested(d);
        }
        if (covers || !gained) {
          satisfied.add(queue);
        }
      }
      unsatisfied.removeAll(satisfied);
      boolean moved = false;
      for (int d = 0; d < size; d++) {
        remaining[d] -= handedOut[d];
        moved |= handedOut[d] > 0;
      }
      if (!moved) {
        break;
      }
    }
    for (Map.Entry<QueueState, long[]> entry : deserved.entrySet()) {
      entry.getKey().setDeserved(dimensions.resourceWithoutPods(entry.getValue()));
    }
  }

  private long cap(QueueState queue, int dimension) {
    long cap = queue.requested(dimension);
    Resource capability = queue.info().capability();
    if (capability != null && capability.quantities().containsKey(session.dimensions().name(dimension))) {
      cap = Math.min(cap, capability.get(session.dimensions().name(dimension)));
    }
    return cap;
  }

  private boolean hasRequest(QueueState queue) {
    for (int d = 0; d < session.dimensions().size(); d++) {
      if (d != ResourceDimensions.PODS && queue.requested(d) > 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean isZero(long[] vector) {
    for (long value : vector) {
      if (value > 0) {
        return false;
      }
    }
    return true;
  }

  private void failMinimumsAboveCapability() {
    for (JobState job : session.jobs()) {
      QueueState queue = job.queue();
      if (queue == null || queue.info().capability() == null || job.isFailed()
          || (job.placedTasks() > 0 && session.isJobReady(job))) {
        continue;
      }
      long[] minimum = job.minimumRequest();
      Resource capability = queue.info().capability();
      for (int d = 0; d < minimum.length; d++) {
        String name = session.dimensions().name(d);
        if (d != ResourceDimensions.PODS && capability.quantities().containsKey(name) && minimum[d] > capability.get(name)) {
          session.failJob(job, ReasonCode.NEVER_FITS, "the job's minimum needs " + name + " "
              + Resource.formatQuantity(name, minimum[d]) + " but queue " + queue.name() + " is capped at "
              + Resource.formatQuantity(name, capability.get(name)));
          break;
        }
      }
    }
  }

  double share(QueueState queue) {
    long[] share = deserved.get(queue);
    double result = 0;
    for (int d = 0; d < share.length; d++) {
      if (share[d] > 0) {
        result = Math.max(result, (double) queue.allocated(d) / share[d]);
      }
    }
    return result;
  }

  private int compareShares(QueueState first, QueueState second) {
    return Double.compare(share(first), share(second));
  }

  boolean isOverused(QueueState queue) {
    long[] share = deserved.get(queue);
    for (int d = 0; d < share.length; d++) {
      if (d != ResourceDimensions.PODS && share[d] > queue.allocated(d)) {
        return false;
      }
    }
    return true;
  }

  private Optional<String> enqueueRefusal(JobState job) {
    QueueState queue = job.queue();
    long[] minimum = job.minimumRequest();
    Resource capability = queue.info().capability();
    ResourceDimensions dimensions = session.dimensions();
    for (int d = 0; d < minimum.length; d++) {
      if (d == ResourceDimensions.PODS || minimum[d] == 0) {
        continue;
      }
      String name = dimensions.name(d);
      long limit = session.clusterAllocatable(d);
      String limitName = "the cluster's total";
      if (capability != null && capability.quantities().containsKey(name) && capability.get(name) < limit) {
        limit = capability.get(name);
        limitName = "its capability";
      }
      long wanted = queue.allocated(d) + queue.inqueue(d) + minimum[d];
      if (wanted > limit) {
        return Optional.of("queue " + queue.name() + " cannot hold the job's minimum (" + name + " "
            + Resource.formatQuantity(name, minimum[d]) + ") within " + limitName + " " + Resource.formatQuantity(name, limit)
            + ": " + Resource.formatQuantity(name, queue.allocated(d)) + " allocated, "
            + Resource.formatQuantity(name, queue.inqueue(d)) + " reserved by enqueued jobs");
      }
    }
    return Optional.empty();
  }

  private List<TaskState> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
    Map<QueueState, long[]> afterEviction = new HashMap<>();
    List<TaskState> allowed = new ArrayList<>();
    for (TaskState victim : candidates) {
      QueueState queue = victim.job().queue();
      if (queue == null || !queue.info().reclaimable() || queue == reclaimer.job().queue()) {
        continue;
      }
      long[] allocated = afterEviction.computeIfAbsent(queue, q -> {
        long[] copy = new long[session.dimensions().size()];
        for (int d = 0; d < copy.length; d++) {
          copy[d] = q.allocated(d);
        }
        return copy;
      });
      long[] share = deserved.get(queue);
      boolean stillAbove = false;
      for (int d = 0; d < allocated.length; d++) {
        if (d != ResourceDimensions.PODS && victim.request(d) > 0 && allocated[d] - victim.request(d) >= share[d]) {
          stillAbove = true;
        }
      }
      if (stillAbove) {
        allowed.add(victim);
        for (int d = 0; d < allocated.length; d++) {
          allocated[d] -= victim.request(d);
        }
      }
    }
    return allowed;
  }
}
