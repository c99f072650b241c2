package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.Resource;

/**
 * One queue of a trace's queue tree, as the scheduler is to be given it.
 *
 * @param parent the parent queue's name; null at the top level
 * @param weight how siblings of the same priority split what is above their guarantees
 * @param priority siblings of higher priority are served first above their guarantees
 * @param guarantee what the queue is guaranteed; {@link Resource#EMPTY} for nothing
 * @param capability the most the queue and its subtree may hold; null for no limit
 */
public record QueueSpec(
    String name, String parent, int weight, int priority, Resource guarantee, Resource capability) {

  public QueueSpec {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a queue needs a name");
    }
    parent = parent == null || parent.isBlank() ? null : parent;
    if (name.equals(parent)) {
      throw new IllegalArgumentException("queue " + name + " cannot be its own parent");
    }
    if (weight < 1) {
      throw new IllegalArgumentException("queue " + name + ": weight must be >= 1, was " + weight);
    }
    if (priority < 0) {
      throw new IllegalArgumentException(
          "queue " + name + ": priority must be >= 0, was " + priority);
    }
    guarantee = guarantee == null ? Resource.EMPTY : guarantee;
  }

  /** A top-level queue of this weight with no guarantee, no limit and priority 0. */
  public static QueueSpec flat(String name, int weight) {
    return new QueueSpec(name, null, weight, 0, Resource.EMPTY, null);
  }

  public long guaranteeGpu() {
    return Gpus.whole(guarantee);
  }

  /** The capability's GPUs; {@link Long#MAX_VALUE} when the queue has no limit on GPUs. */
  public long capabilityGpu() {
    return capability == null || !capability.quantities().containsKey(Resource.GPU)
        ? Long.MAX_VALUE
        : Gpus.whole(capability);
  }
}
