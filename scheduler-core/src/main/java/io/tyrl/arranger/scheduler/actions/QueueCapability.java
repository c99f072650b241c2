package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A queue's {@code capability} as a hard limit on what allocate places: a pod is placed only while
 * the queue's allocation plus its request stays within the capability in every resource the
 * capability names. The proportion plugin caps {@code deserved} by the capability, but deserved is a
 * share of the cycle — without this check a queue alone on the cluster would run past its cap.
 */
final class QueueCapability {

  /** Per capped dimension, the limit; dimensions the capability does not name are absent. */
  private record Limit(int[] dimensions, long[] limits) {}

  private static final Limit NONE = new Limit(new int[0], new long[0]);

  private final Session session;
  private final Map<QueueState, Limit> limits = new HashMap<>();

  QueueCapability(Session session) {
    this.session = session;
  }

  /** Why the task would take its queue past its capability, if it would. */
  Optional<String> exceededBy(TaskState task) {
    QueueState queue = task.job().queue();
    if (queue == null) {
      return Optional.empty();
    }
    Limit limit = limits.computeIfAbsent(queue, this::limitOf);
    for (int i = 0; i < limit.dimensions().length; i++) {
      int dimension = limit.dimensions()[i];
      if (queue.allocated(dimension) + task.request(dimension) > limit.limits()[i]) {
        String name = session.dimensions().name(dimension);
        return Optional.of("queue " + queue.name() + " is at its capability (" + name + " "
            + Resource.formatQuantity(name, queue.allocated(dimension)) + " of " + Resource.formatQuantity(name, limit.limits()[i])
            + " allocated)");
      }
    }
    return Optional.empty();
  }

  private Limit limitOf(QueueState queue) {
    Resource capability = queue.info().capability();
    if (capability == null) {
      return NONE;
    }
    ResourceDimensions dimensions = session.dimensions();
    int[] capped = new int[capability.quantities().size()];
    long[] values = new long[capped.length];
    int count = 0;
    for (Map.Entry<String, Long> entry : capability.quantities().entrySet()) {
      int dimension = dimensions.indexOf(entry.getKey());
      if (dimension >= 0 && dimension != ResourceDimensions.PODS) {
        capped[count] = dimension;
        values[count] = entry.getValue();
        count++;
      }
    }
    return new Limit(java.util.Arrays.copyOf(capped, count), java.util.Arrays.copyOf(values, count));
  }
}
