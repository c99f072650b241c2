package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * A queue's {@code capability}, the hard limit on what its jobs hold, read against the queue's
 * allocation as it is now — and every ancestor's, each against its whole subtree: a subtree never
 * holds more than its root's capability. Only the resources a capability names are capped, never
 * the pod count. Allocate places a pod only within all of them; preempt and reclaim evict the
 * queue's own pods to get back under its own (a plan that leaves an ancestor above its limit is
 * dropped). The proportion plugin caps {@code deserved} by them too, but deserved is a share of the
 * cycle: without the hard limit a queue alone on the cluster would run past its cap.
 *
 * <p>It also holds the in-quota rule of jobs that may not be preempted or reclaimed: such a job
 * runs only within the guarantee of its queue and of every ancestor, in each resource a guarantee
 * names, since nothing could take the room back from it.
 */
public final class QueueCapability {

  private final QueueState queue;
  private final ResourceDimensions dimensions;

  /** The capped dimensions, in the capability's order, and the limit of each. */
  private final int[] capped;

  private final long[] limits;

  QueueCapability(QueueState queue, ResourceDimensions dimensions) {
    this.queue = queue;
    this.dimensions = dimensions;
    Resource capability = queue.info().capability();
    Map<String, Long> quantities = capability == null ? Map.of() : capability.quantities();
    int[] dimensionsFound = new int[quantities.size()];
    long[] limitsFound = new long[quantities.size()];
    int count = 0;
    for (Map.Entry<String, Long> entry : quantities.entrySet()) {
      int dimension = dimensions.indexOf(entry.getKey());
      if (dimension >= 0 && dimension != ResourceDimensions.PODS) {
        dimensionsFound[count] = dimension;
        limitsFound[count] = entry.getValue();
        count++;
      }
    }
    this.capped = Arrays.copyOf(dimensionsFound, count);
    this.limits = Arrays.copyOf(limitsFound, count);
  }

  /**
   * Why placing the task would take the queue or an ancestor past its capability, or a job that may
   * not be preempted past a guarantee, if it would.
   */
  public Optional<String> refusal(TaskState task) {
    for (QueueState level : queue.selfAndAncestors()) {
      Optional<String> own = level.capability().ownRefusal(task);
      if (own.isPresent()) {
        return own;
      }
    }
    return task.job().info().preemptable() ? Optional.empty() : beyondGuarantee(task);
  }

  private Optional<String> ownRefusal(TaskState task) {
    for (int i = 0; i < capped.length; i++) {
      int dimension = capped[i];
      if (queue.allocated(dimension) + task.request(dimension) > limits[i]) {
        String name = dimensions.name(dimension);
        return Optional.of(
            "queue "
                + queue.path()
                + (queue.allocated(dimension) >= limits[i]
                    ? " is at its limit: holds "
                    : " would pass its limit with the pod's "
                        + Resource.formatQuantity(name, task.request(dimension))
                        + ": holds ")
                + Resource.formatQuantity(name, queue.allocated(dimension))
                + " of "
                + Resource.formatQuantity(name, limits[i])
                + " "
                + name);
      }
    }
    return Optional.empty();
  }

  /**
   * Why a job that may not be preempted cannot place the task within the guarantee of its queue or
   * an ancestor, in a resource that guarantee names.
   */
  private Optional<String> beyondGuarantee(TaskState task) {
    for (QueueState level : queue.selfAndAncestors()) {
      for (int dimension : task.requestedDimensions()) {
        if (level.guarantees(dimension)
            && level.allocatedNonPreemptible(dimension) + task.request(dimension)
                > level.guarantee(dimension)) {
          return Optional.of(outsideGuarantee(level, dimension, task.request(dimension), 0));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * {@code non-preemptible job needs 8 nvidia.com/gpu within guarantee; rl-a has 4 of its 16 free}.
   *
   * @param reserved what else already counts against the guarantee (the minimums of such jobs
   *     enqueued before it)
   */
  public static String outsideGuarantee(
      QueueState level, int dimension, long needed, long reserved) {
    String name = level.capability().dimensions.name(dimension);
    long free =
        Math.max(
            0, level.guarantee(dimension) - level.allocatedNonPreemptible(dimension) - reserved);
    return "non-preemptible job needs "
        + Resource.formatQuantity(name, needed)
        + " "
        + name
        + " within guarantee; "
        + level.path()
        + " has "
        + Resource.formatQuantity(name, free)
        + " of its "
        + Resource.formatQuantity(name, level.guarantee(dimension))
        + " free";
  }

  /**
   * Per resource, how far placing the task would take the queue above its own capability; null when
   * it stays within it. Ancestors' limits are not part of it: their victims may be anywhere in
   * their subtree, and the selector checks them on the finished plan ({@link #isExceeded}).
   */
  public long[] shortfall(TaskState task) {
    long[] shortfall = null;
    for (int i = 0; i < capped.length; i++) {
      int dimension = capped[i];
      long excess = queue.allocated(dimension) + task.request(dimension) - limits[i];
      if (excess > 0) {
        if (shortfall == null) {
          shortfall = new long[dimensions.size()];
        }
        shortfall[dimension] = excess;
      }
    }
    return shortfall;
  }

  /** True when the queue or an ancestor holds more than its capability now. */
  public boolean isExceeded() {
    for (QueueState level : queue.selfAndAncestors()) {
      QueueCapability own = level.capability();
      for (int i = 0; i < own.capped.length; i++) {
        if (level.allocated(own.capped[i]) > own.limits[i]) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * True when the job may not be preempted and what such jobs hold in the queue or an ancestor is
   * above a guarantee there, in a resource the job holds.
   */
  public boolean isBeyondGuarantee(JobState job) {
    if (job.info().preemptable()) {
      return false;
    }
    for (QueueState level : queue.selfAndAncestors()) {
      for (int d = 0; d < dimensions.size(); d++) {
        if (job.allocated(d) > 0
            && level.guarantees(d)
            && level.allocatedNonPreemptible(d) > level.guarantee(d)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The queue's own limit in the resource; {@code Long.MAX_VALUE} where it names none. */
  public long limit(int dimension) {
    for (int i = 0; i < capped.length; i++) {
      if (capped[i] == dimension) {
        return limits[i];
      }
    }
    return Long.MAX_VALUE;
  }

  /**
   * True when giving {@code restored} and then {@code more} back to the queue keeps it within its
   * capability in every resource {@code more} adds to.
   */
  public boolean holdsAfterGivingBack(long[] restored, long[] more) {
    for (int i = 0; i < capped.length; i++) {
      int dimension = capped[i];
      if (more[dimension] > 0
          && queue.allocated(dimension) + restored[dimension] + more[dimension] > limits[i]) {
        return false;
      }
    }
    return true;
  }
}
