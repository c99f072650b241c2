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
 * Shares the cluster between queues.
 *
 * <p><b>Deserved</b> — weighted water-filling, per resource, in exact integers: start with the
 * cluster's total allocatable as {@code remaining}; in each round the queues still below their cap
 * (what their jobs request, and their capability) share {@code remaining} by weight — in whole
 * units, the floors first and the units the floors leave over one each by largest remainder, then
 * higher weight, then queue name, so that no unit is lost (8 GPUs over three equal queues: 3/3/2,
 * not 2/2/2); a queue reaching its cap gives back the surplus for the next round; rounds stop when
 * nothing is left or every queue is capped. With nodes 6 cpu/15Gi and 3 cpu/12Gi and queues of
 * weight 2 and 4 requesting 5 cpu/10Gi and 10 cpu/20Gi, that gives 3 cpu/9Gi and 6 cpu/18Gi.
 *
 * <p><b>Overused</b> — a queue whose allocation has reached its deserved share in every resource it
 * deserves is skipped for the rest of the cycle. Queues are served lowest {@code
 * allocated/deserved} first.
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
    // By name, so that leftover units on equal remainders and weights go the same way whatever the
    // snapshot's order.
    List<QueueState> byName = new ArrayList<>();
    for (QueueState queue : session.queues()) {
      deserved.put(queue, new long[size]);
      byName.add(queue);
    }
    byName.sort((a, b) -> a.name().compareTo(b.name()));
    for (int d = 0; d < size; d++) {
      if (d != ResourceDimensions.PODS) {
        waterFill(d, byName);
      }
    }
    for (Map.Entry<QueueState, long[]> entry : deserved.entrySet()) {
      entry.getKey().setDeserved(dimensions.resourceWithoutPods(entry.getValue()));
    }
  }

  /**
   * Weighted water-filling of one resource: each round, the queues still below their cap share what
   * remains by weight; whole units are handed out so that nothing is lost to rounding (largest
   * remainder first, then the higher weight, then the queue name); a queue reaching its cap gives
   * the surplus back for the next round. Every round either hands out all that remains or caps one
   * more queue, so it ends after at most one round per queue.
   */
  private void waterFill(int dimension, List<QueueState> queues) {
    long remaining = session.clusterAllocatable(dimension);
    List<QueueState> open = new ArrayList<>();
    for (QueueState queue : queues) {
      if (cap(queue, dimension) > 0) {
        open.add(queue);
      }
    }
    while (remaining > 0 && !open.isEmpty()) {
      long[] offers = apportion(remaining, open);
      List<QueueState> capped = new ArrayList<>();
      long handedOut = 0;
      for (int i = 0; i < open.size(); i++) {
        QueueState queue = open.get(i);
        long[] share = deserved.get(queue);
        long room = cap(queue, dimension) - share[dimension];
        long given = Math.min(offers[i], room);
        share[dimension] += given;
        handedOut += given;
        if (given == room) {
          capped.add(queue);
        }
      }
      remaining -= handedOut;
      open.removeAll(capped);
      if (handedOut == 0) {
        break;
      }
    }
  }

  /**
   * Splits {@code amount} whole units between the queues in proportion to their weights, exactly:
   * each gets {@code floor(amount × weight / Σ weights)}, and the units left over go one each to
   * the queues with the largest remainders, ties to the higher weight, then to the queue listed
   * first.
   */
  static long[] apportion(long amount, List<QueueState> queues) {
    long totalWeight = 0;
    for (QueueState queue : queues) {
      totalWeight += queue.info().weight();
    }
    BigInteger total = BigInteger.valueOf(totalWeight);
    long[] offers = new long[queues.size()];
    long[] remainders = new long[queues.size()];
    long left = amount;
    for (int i = 0; i < queues.size(); i++) {
      BigInteger[] division =
          BigInteger.valueOf(amount)
              .multiply(BigInteger.valueOf(queues.get(i).info().weight()))
              .divideAndRemainder(total);
      offers[i] = division[0].longValueExact();
      remainders[i] = division[1].longValueExact();
      left -= offers[i];
    }
    List<Integer> byRemainder = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      byRemainder.add(i);
    }
    byRemainder.sort(
        (a, b) ->
            remainders[a] != remainders[b]
                ? Long.compare(remainders[b], remainders[a])
                : queues.get(a).info().weight() != queues.get(b).info().weight()
                    ? Integer.compare(queues.get(b).info().weight(), queues.get(a).info().weight())
                    : Integer.compare(a, b));
    for (int k = 0; k < left; k++) {
      offers[byRemainder.get(k)]++;
    }
    return offers;
  }

  private long cap(QueueState queue, int dimension) {
    long cap = queue.requested(dimension);
    Resource capability = queue.info().capability();
    if (capability != null
        && capability.quantities().containsKey(session.dimensions().name(dimension))) {
      cap = Math.min(cap, capability.get(session.dimensions().name(dimension)));
    }
    return cap;
  }

  private void failMinimumsAboveCapability() {
    for (JobState job : session.jobs()) {
      QueueState queue = job.queue();
      if (queue == null
          || queue.info().capability() == null
          || job.isFailed()
          || (job.placedTasks() > 0 && session.isJobReady(job))) {
        continue;
      }
      long[] minimum = job.minimumRequest();
      Resource capability = queue.info().capability();
      for (int d = 0; d < minimum.length; d++) {
        String name = session.dimensions().name(d);
        if (d != ResourceDimensions.PODS
            && capability.quantities().containsKey(name)
            && minimum[d] > capability.get(name)) {
          session.failJob(
              job,
              ReasonCode.NEVER_FITS,
              "the job's minimum needs "
                  + name
                  + " "
                  + Resource.formatQuantity(name, minimum[d])
                  + " but queue "
                  + queue.name()
                  + " is capped at "
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
      if (capability != null
          && capability.quantities().containsKey(name)
          && capability.get(name) < limit) {
        limit = capability.get(name);
        limitName = "its capability";
      }
      long wanted = queue.allocated(d) + queue.inqueue(d) + minimum[d];
      if (wanted > limit) {
        return Optional.of(
            "queue "
                + queue.name()
                + " cannot hold the job's minimum ("
                + name
                + " "
                + Resource.formatQuantity(name, minimum[d])
                + ") within "
                + limitName
                + " "
                + Resource.formatQuantity(name, limit)
                + ": "
                + Resource.formatQuantity(name, queue.allocated(d))
                + " allocated, "
                + Resource.formatQuantity(name, queue.inqueue(d))
                + " reserved by enqueued jobs");
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
      long[] allocated =
          afterEviction.computeIfAbsent(
              queue,
              q -> {
                long[] copy = new long[session.dimensions().size()];
                for (int d = 0; d < copy.length; d++) {
                  copy[d] = q.allocated(d);
                }
                return copy;
              });
      long[] share = deserved.get(queue);
      boolean stillAbove = false;
      for (int d = 0; d < allocated.length; d++) {
        if (d != ResourceDimensions.PODS
            && victim.request(d) > 0
            && allocated[d] - victim.request(d) >= share[d]) {
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
