package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.GpuDevices;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.QueueCapability;
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

  /** See {@link #shareUnit}; 0 until computed for the session. */
  private long gpuShareUnit;

  private final Map<QueueState, long[]> deserved = new HashMap<>();

  /** Per resource, the cluster's room free now or once the pods being released are gone. */
  private long[] freeRoom;

  private final Map<QueueState, long[]> smallestWaitingMinimum = new HashMap<>();

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new ProportionPlugin());
  }

  @Override
  public void onSessionOpen(Session openedSession, PluginHooks hooks) {
    this.session = openedSession;
    this.gpuShareUnit = 0;
    computeDeserved();
    collectWaitingMinimums();
    freeRoom = new long[session.dimensions().size()];
    for (NodeState node : session.nodes()) {
      for (int d = 0; d < freeRoom.length; d++) {
        freeRoom[d] += Math.max(0, node.futureIdle(d));
      }
    }
    failMinimumsAboveCapability();
    hooks.queueOrder(this::compareShares);
    hooks.overused(this::isOverused);
    hooks.jobEnqueueable(this::enqueueRefusal);
    hooks.jobEnqueueable(this::borrowRefusal);
    hooks.reclaimableVictims(this::reclaimable);
    BorrowedRoom borrowedRoom = new BorrowedRoom(session, deserved::get);
    session.followPlacements(borrowedRoom);
    hooks.nodeScore(borrowedRoom::score, 1, borrowedRoom::context);
  }

  private void computeDeserved() {
    ResourceDimensions dimensions = session.dimensions();
    int size = dimensions.size();
    // By name, so that leftover units on equal remainders and weights go the same way whatever the
    // snapshot's order.
    List<QueueState> tops = new ArrayList<>();
    for (QueueState queue : session.queues()) {
      deserved.put(queue, new long[size]);
      if (queue.parent() == null) {
        tops.add(queue);
      }
    }
    tops.sort(BY_NAME);
    for (int d = 0; d < size; d++) {
      if (d != ResourceDimensions.PODS) {
        Map<QueueState, Long> demand = new HashMap<>();
        for (QueueState top : tops) {
          demandOf(top, d, demand);
        }
        split(session.clusterAllocatable(d), tops, d, demand);
      }
    }
    for (Map.Entry<QueueState, long[]> entry : deserved.entrySet()) {
      entry.getKey().setDeserved(dimensions.resourceWithoutPods(entry.getValue()));
    }
  }

  private static final java.util.Comparator<QueueState> BY_NAME =
      (a, b) -> a.name().compareTo(b.name());

  /**
   * What a queue could use of one resource: a leaf's jobs' requests, placed or not; the sum of a
   * queue's children's; never above its capability. A queue under an invalid part of the tree could
   * use what it holds, no more: its jobs wait, and what they hold is not taken from them.
   */
  private long demandOf(QueueState queue, int dimension, Map<QueueState, Long> demand) {
    long wanted;
    if (queue.isInInvalidSubtree()) {
      wanted = queue.allocated(dimension);
      for (QueueState child : queue.children()) {
        demandOf(child, dimension, demand);
      }
    } else if (queue.isLeaf()) {
      wanted = queue.requested(dimension);
    } else {
      wanted = 0;
      for (QueueState child : queue.children()) {
        wanted += demandOf(child, dimension, demand);
      }
    }
    long capped = Math.min(wanted, queue.capability().limit(dimension));
    demand.put(queue, capped);
    return capped;
  }

  /**
   * Shares {@code capacity} of one resource between siblings, then each one's share between its
   * children: first each gets its guarantee, as far as it has demand for it (when the guarantees
   * together exceed the capacity, the capacity is split in proportion to them); what is left goes
   * to the siblings of the highest priority first, by weight (water-filling) adjusted for past
   * usage ({@link UsageAdjustedWeights}), then to the next priority, never above a sibling's
   * demand.
   */
  private void split(
      long capacity, List<QueueState> siblings, int dimension, Map<QueueState, Long> demand) {
    long[] guaranteed = new long[siblings.size()];
    long totalGuaranteed = 0;
    for (int i = 0; i < siblings.size(); i++) {
      QueueState queue = siblings.get(i);
      // What jobs under an invalid queue hold is kept for them like a guarantee: they wait for the
      // tree to be fixed, and nothing they hold is taken meanwhile.
      guaranteed[i] =
          queue.isInInvalidSubtree()
              ? demand.get(queue)
              : Math.min(queue.guarantee(dimension), demand.get(queue));
      totalGuaranteed += guaranteed[i];
    }
    long remaining = capacity;
    if (totalGuaranteed <= capacity) {
      for (int i = 0; i < siblings.size(); i++) {
        deserved.get(siblings.get(i))[dimension] = guaranteed[i];
      }
      remaining -= totalGuaranteed;
    } else {
      remaining = waterFill(capacity, siblings, dimension, guaranteed, guaranteed);
    }
    List<QueueState> byPriority = new ArrayList<>(siblings);
    byPriority.sort((a, b) -> Integer.compare(b.info().priority(), a.info().priority()));
    int from = 0;
    while (from < byPriority.size() && remaining > 0) {
      int priority = byPriority.get(from).info().priority();
      int to = from;
      while (to < byPriority.size() && byPriority.get(to).info().priority() == priority) {
        to++;
      }
      List<QueueState> group = new ArrayList<>(byPriority.subList(from, to));
      group.sort(BY_NAME);
      long[] caps = new long[group.size()];
      for (int i = 0; i < group.size(); i++) {
        caps[i] = demand.get(group.get(i));
      }
      long[] groupWeights = UsageAdjustedWeights.of(session, group, dimension, capacity);
      remaining = waterFill(remaining, group, dimension, caps, groupWeights);
      from = to;
    }
    for (QueueState queue : siblings) {
      if (!queue.isLeaf()) {
        List<QueueState> children = new ArrayList<>(queue.children());
        children.sort(BY_NAME);
        split(deserved.get(queue)[dimension], children, dimension, demand);
      }
    }
  }

  /**
   * Weighted water-filling of one resource: each round, the queues still below their cap share what
   * remains by weight; whole units are handed out so that nothing is lost to rounding (largest
   * remainder first, then the higher weight, then the queue listed first); a queue reaching its cap
   * gives the surplus back for the next round. Every round either hands out all that remains or
   * caps one more queue, so it ends after at most one round per queue.
   *
   * @return what is left once every queue is capped
   */
  private long waterFill(
      long amount, List<QueueState> queues, int dimension, long[] caps, long[] weights) {
    long remaining = amount;
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      if (caps[i] > deserved.get(queues.get(i))[dimension] && weights[i] > 0) {
        open.add(i);
      }
    }
    while (remaining > 0 && !open.isEmpty()) {
      long[] openWeights = new long[open.size()];
      for (int k = 0; k < open.size(); k++) {
        openWeights[k] = weights[open.get(k)];
      }
      long unit = shareUnit(dimension);
      if (remaining < unit) {
        break;
      }
      long[] offers = apportion(remaining / unit, openWeights);
      for (int k = 0; k < offers.length; k++) {
        offers[k] *= unit;
      }
      List<Integer> capped = new ArrayList<>();
      long handedOut = 0;
      for (int k = 0; k < open.size(); k++) {
        int i = open.get(k);
        long[] share = deserved.get(queues.get(i));
        long room = caps[i] - share[dimension];
        long given = Math.min(offers[k], room);
        share[dimension] += given;
        handedOut += given;
        if (given == room) {
          capped.add(i);
        }
      }
      remaining -= handedOut;
      open.removeAll(capped);
      if (handedOut == 0) {
        break;
      }
    }
    return remaining;
  }

  /**
   * The unit a resource is shared out in: one milli-GPU once some pod of the session asks for a
   * share of a GPU, else a whole GPU — a deserved share of 2.667 GPUs while every pod takes whole
   * devices would promise a queue part of a device none of its pods can use. Every other resource
   * in its own unit.
   */
  private long shareUnit(int dimension) {
    if (dimension != session.dimensions().indexOf(Resource.GPU)) {
      return 1;
    }
    if (gpuShareUnit == 0) {
      gpuShareUnit = GpuDevices.WHOLE;
      for (JobState job : session.jobs()) {
        for (TaskState task : job.tasks()) {
          if (GpuDevices.isFraction(task.request(dimension))) {
            gpuShareUnit = 1;
          }
        }
      }
    }
    return gpuShareUnit;
  }

  /**
   * Splits {@code amount} whole units between the queues in proportion to their weights, exactly:
   * each gets {@code floor(amount × weight / Σ weights)}, and the units left over go one each to
   * the queues with the largest remainders, ties to the higher weight, then to the queue listed
   * first.
   */
  static long[] apportion(long amount, List<QueueState> queues) {
    long[] weights = new long[queues.size()];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = queues.get(i).info().weight();
    }
    return apportion(amount, weights);
  }

  /** {@link #apportion(long, List)} over plain weights, each listed in the order given. */
  static long[] apportion(long amount, long[] weights) {
    BigInteger total = BigInteger.ZERO;
    for (long weight : weights) {
      total = total.add(BigInteger.valueOf(weight));
    }
    long[] offers = new long[weights.length];
    long[] remainders = new long[weights.length];
    long left = amount;
    for (int i = 0; i < weights.length; i++) {
      BigInteger[] division =
          BigInteger.valueOf(amount)
              .multiply(BigInteger.valueOf(weights[i]))
              .divideAndRemainder(total);
      offers[i] = division[0].longValueExact();
      remainders[i] = division[1].longValueExact();
      left -= offers[i];
    }
    List<Integer> byRemainder = new ArrayList<>();
    for (int i = 0; i < weights.length; i++) {
      byRemainder.add(i);
    }
    byRemainder.sort(
        (a, b) ->
            remainders[a] != remainders[b]
                ? Long.compare(remainders[b], remainders[a])
                : weights[a] != weights[b]
                    ? Long.compare(weights[b], weights[a])
                    : Integer.compare(a, b));
    for (int k = 0; k < left; k++) {
      offers[byRemainder.get(k)]++;
    }
    return offers;
  }

  private void failMinimumsAboveCapability() {
    for (JobState job : session.jobs()) {
      QueueState queue = job.queue();
      if (queue == null || job.isFailed() || (job.placedTasks() > 0 && session.isJobReady(job))) {
        continue;
      }
      long[] minimum = job.minimumRequest();
      levels:
      for (QueueState level : queue.selfAndAncestors()) {
        for (int d = 0; d < minimum.length; d++) {
          String name = session.dimensions().name(d);
          if (d != ResourceDimensions.PODS && minimum[d] > level.capability().limit(d)) {
            session.failJob(
                job,
                ReasonCode.NEVER_FITS,
                "the job's minimum needs "
                    + name
                    + " "
                    + Resource.formatQuantity(name, minimum[d])
                    + " but queue "
                    + level.path()
                    + " is capped at "
                    + Resource.formatQuantity(name, level.capability().limit(d)));
            break levels;
          }
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

  /**
   * A job enters only if its queue and every ancestor can hold its minimum within their capability
   * and the cluster's total, counting what they hold and the jobs enqueued before it; a job that
   * may not be preempted must also fit within every guarantee that names a resource it needs.
   */
  private Optional<String> enqueueRefusal(JobState job) {
    long[] minimum = job.minimumRequest();
    ResourceDimensions dimensions = session.dimensions();
    for (QueueState level : job.queue().selfAndAncestors()) {
      for (int d = 0; d < minimum.length; d++) {
        if (d == ResourceDimensions.PODS || minimum[d] == 0) {
          continue;
        }
        String name = dimensions.name(d);
        long limit = session.clusterAllocatable(d);
        String limitName = "the cluster's total";
        if (level.capability().limit(d) < limit) {
          limit = level.capability().limit(d);
          limitName = "its capability";
        }
        long wanted = level.allocated(d) + level.inqueue(d) + minimum[d];
        if (wanted > limit) {
          return Optional.of(
              "queue "
                  + level.path()
                  + " cannot hold the job's minimum ("
                  + name
                  + " "
                  + Resource.formatQuantity(name, minimum[d])
                  + ") within "
                  + limitName
                  + " "
                  + Resource.formatQuantity(name, limit)
                  + ": "
                  + Resource.formatQuantity(name, level.allocated(d))
                  + " allocated, "
                  + Resource.formatQuantity(name, level.inqueue(d))
                  + " reserved by enqueued jobs");
        }
        if (!job.info().preemptable()
            && level.guarantees(d)
            && level.allocatedNonPreemptible(d) + level.inqueueNonPreemptible(d) + minimum[d]
                > level.guarantee(d)) {
          return Optional.of(
              QueueCapability.outsideGuarantee(
                  level, d, minimum[d], level.inqueueNonPreemptible(d)));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * A job's minimum — its core — may start above its queue's fair share only on room no other queue
   * is owed: the cluster's free room (counting what is being released) less what the other queues
   * are still owed of their fair shares and the minimums enqueued before it. Surplus (elastic pods
   * above a running job's minimum) borrows idle room freely and is what reclaim takes back first; a
   * core started on borrowed room would be the next victim as soon as the owner's jobs arrive.
   */
  private Optional<String> borrowRefusal(JobState job) {
    QueueState queue = job.queue();
    long[] minimum = job.minimumRequest();
    ResourceDimensions dimensions = session.dimensions();
    long[] share = deserved.get(queue);
    for (int d = 0; d < minimum.length; d++) {
      if (d == ResourceDimensions.PODS || minimum[d] == 0) {
        continue;
      }
      long held = queue.allocated(d) + queue.inqueue(d);
      if (held + minimum[d] <= share[d]) {
        continue;
      }
      long owedToOthers = 0;
      for (Map.Entry<QueueState, long[]> waiting : smallestWaitingMinimum.entrySet()) {
        QueueState other = waiting.getKey();
        if (other != queue && canStartWithinShare(other, waiting.getValue())) {
          owedToOthers +=
              Math.max(0, deserved.get(other)[d] - other.allocated(d) - other.inqueue(d));
        }
      }
      long spare = freeRoom[d] - session.clusterInqueue(d) - owedToOthers;
      if (minimum[d] > spare) {
        String name = dimensions.name(d);
        long free = Math.max(0, freeRoom[d] - session.clusterInqueue(d));
        List<String> amounts =
            Resource.formatQuantitiesAlike(
                name, held, share[d], free, Math.min(free, owedToOthers));
        return Optional.of(
            "the job's minimum ("
                + name
                + " "
                + Resource.formatQuantity(name, minimum[d])
                + ") would take queue "
                + queue.path()
                + " above its fair share ("
                + amounts.get(0)
                + " of "
                + amounts.get(1)
                + " held or enqueued), which it may only on free room no other queue is owed: "
                + amounts.get(2)
                + " free, "
                + amounts.get(3)
                + " of it owed");
      }
    }
    return Optional.empty();
  }

  /**
   * True when what is left of the queue's share, and the free room, could both hold its smallest
   * waiting minimum in every resource: room the queue is owed counts as owed only if it could start
   * a job on it now. Two queues each at their share of a different resource (cpu-heavy and
   * GPU-heavy pods) are owed nothing they could not start, and a queue whose jobs need more than is
   * free keeps nobody out: the idle room is lent, and reclaim gives it back once the owner's job
   * can start.
   */
  private boolean canStartWithinShare(QueueState queue, long[] smallestMinimum) {
    long[] share = deserved.get(queue);
    for (int d = 0; d < smallestMinimum.length; d++) {
      if (d != ResourceDimensions.PODS
          && (smallestMinimum[d] > share[d] - queue.allocated(d) - queue.inqueue(d)
              || smallestMinimum[d] > freeRoom[d] - session.clusterInqueue(d))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Per leaf queue, the per-resource least of what its waiting work needs to start: the minimum of
   * a job that holds nothing yet, or one pending pod of a running job that would grow (a bound: a
   * queue some of whose work fits within its share passes it). A job still completing its gang is
   * left out: it is enqueued, so what its minimum still needs is among the enqueued minimums
   * already. Growth counts as much as a new job: a team below its share whose running jobs want
   * more actors is owed that room, and a core that took it instead could not be reclaimed for them,
   * since growth takes only surplus.
   */
  private void collectWaitingMinimums() {
    for (JobState job : session.jobs()) {
      QueueState queue = job.queue();
      if (queue == null || job.isFailed() || job.isQueueBlocked() || !job.hasPendingTasks()) {
        continue;
      }
      if (job.placedTasks() == 0) {
        lowerSmallestWaiting(queue, job.minimumRequest());
      } else if (job.isMinimumPlaced()) {
        for (TaskState task : job.pendingTasks()) {
          lowerSmallestWaiting(queue, task.request());
        }
      }
    }
  }

  private void lowerSmallestWaiting(QueueState queue, long[] request) {
    long[] smallest = smallestWaitingMinimum.get(queue);
    if (smallest == null) {
      smallestWaitingMinimum.put(queue, request.clone());
    } else {
      for (int d = 0; d < smallest.length; d++) {
        smallest[d] = Math.min(smallest[d], request[d]);
      }
    }
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
