package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * A queue's {@code capability}, the hard limit on what its jobs hold, read against the queue's
 * allocation as it is now. Only the resources the capability names are capped, never the pod count.
 * Allocate places a pod only within it; preempt and reclaim evict the queue's own pods to get back
 * under it. The proportion plugin caps {@code deserved} by it too, but deserved is a share of the
 * cycle: without the hard limit a queue alone on the cluster would run past its cap.
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

  /** Why placing the task would take the queue past its capability, if it would. */
  public Optional<String> refusal(TaskState task) {
    for (int i = 0; i < capped.length; i++) {
      int dimension = capped[i];
      if (queue.allocated(dimension) + task.request(dimension) > limits[i]) {
        String name = dimensions.name(dimension);
        return Optional.of(
            "queue "
                + queue.name()
                + " is at its capability ("
                + name
                + " "
                + Resource.formatQuantity(name, queue.allocated(dimension))
                + " of "
                + Resource.formatQuantity(name, limits[i])
                + " allocated)");
      }
    }
    return Optional.empty();
  }

  /**
   * Per resource, how far placing the task would take the queue above its capability; null when it
   * stays within it.
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

  /** True when the queue holds more than its capability now. */
  public boolean isExceeded() {
    for (int i = 0; i < capped.length; i++) {
      if (queue.allocated(capped[i]) > limits[i]) {
        return true;
      }
    }
    return false;
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
