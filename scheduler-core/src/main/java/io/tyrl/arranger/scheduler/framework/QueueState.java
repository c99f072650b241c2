package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A queue inside a session: its place in the queue tree ({@link QueueTree} links it), what its jobs
 * hold and request, what it deserves (set by the plugin that computes shares, e.g. proportion), and
 * the minimum of the jobs enqueued but not yet placed. A queue with children counts its whole
 * subtree: every amount added to a queue is added to each of its ancestors too.
 */
public final class QueueState {

  private final QueueInfo info;
  private final ResourceDimensions dimensions;
  private final long[] allocated;
  private final long[] allocatedNonPreemptible;
  private final long[] requested;
  private final long[] inqueue;
  private final long[] inqueueNonPreemptible;
  private final long[] guarantee;
  private final QueueCapability capability;
  private Resource deserved = Resource.EMPTY;
  private QueueState parent;
  private final List<QueueState> children = new ArrayList<>();
  private String problem;
  private boolean problemBlocksSubtree;

  QueueState(QueueInfo info, ResourceDimensions dimensions) {
    this.info = info;
    this.dimensions = dimensions;
    this.allocated = new long[dimensions.size()];
    this.allocatedNonPreemptible = new long[dimensions.size()];
    this.requested = new long[dimensions.size()];
    this.inqueue = new long[dimensions.size()];
    this.inqueueNonPreemptible = new long[dimensions.size()];
    this.guarantee = dimensions.vector(info.guarantee());
    this.guarantee[ResourceDimensions.PODS] = 0;
    this.capability = new QueueCapability(this, dimensions);
  }

  public QueueInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  /** The queue's names from the top of its tree down to it: {@code research/rl-a}. */
  public String path() {
    return parent == null ? name() : parent.path() + "/" + name();
  }

  /** The parent queue; empty at the top level (and for a queue whose parent is invalid). */
  public QueueState parent() {
    return parent;
  }

  public List<QueueState> children() {
    return Collections.unmodifiableList(children);
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }

  /** What the queue is guaranteed (0 where its guarantee names nothing). */
  public long guarantee(int dimension) {
    return guarantee[dimension];
  }

  /** True when the queue's guarantee names the resource. */
  public boolean guarantees(int dimension) {
    return dimension != ResourceDimensions.PODS
        && info.guarantee().quantities().containsKey(dimensions.name(dimension));
  }

  /** What its jobs' placed pods hold (its subtree's, for a queue with children). */
  public long allocated(int dimension) {
    return allocated[dimension];
  }

  /** The part of {@link #allocated} held by jobs that may not be preempted or reclaimed. */
  public long allocatedNonPreemptible(int dimension) {
    return allocatedNonPreemptible[dimension];
  }

  /** All tasks of the queue's jobs, placed or not (its subtree's, for a queue with children). */
  public long requested(int dimension) {
    return requested[dimension];
  }

  /** The minimum of jobs enqueued in this cycle that have nothing placed yet. */
  public long inqueue(int dimension) {
    return inqueue[dimension];
  }

  /** The part of {@link #inqueue} of jobs that may not be preempted or reclaimed. */
  public long inqueueNonPreemptible(int dimension) {
    return inqueueNonPreemptible[dimension];
  }

  /** The queue's hard limits, its own and its ancestors', read against what they hold now. */
  public QueueCapability capability() {
    return capability;
  }

  public Resource deserved() {
    return deserved;
  }

  public void setDeserved(Resource newDeserved) {
    this.deserved = newDeserved;
  }

  /**
   * Why the queue's place in the tree is invalid; null when it is valid. See {@link
   * #blockingProblem()} for whether its jobs may run.
   */
  public String problem() {
    return problem;
  }

  /**
   * The problem that keeps this queue's jobs from being scheduled, with the queue that has it: its
   * own, or the nearest ancestor's whose problem blocks its whole subtree; null when none does.
   */
  public QueueProblem blockingProblem() {
    if (problem != null) {
      return new QueueProblem(this, problem);
    }
    for (QueueState above = parent; above != null; above = above.parent) {
      if (above.problem != null && above.problemBlocksSubtree) {
        return new QueueProblem(above, above.problem);
      }
    }
    return null;
  }

  /** True when this queue or an ancestor has a problem that blocks its whole subtree. */
  public boolean isInInvalidSubtree() {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      if (queue.problem != null && queue.problemBlocksSubtree) {
        return true;
      }
    }
    return false;
  }

  /**
   * The queue's minimum runtime before a job's core may be preempted: its own, else the nearest
   * ancestor's; zero when none sets it.
   */
  public Duration preemptMinRuntime() {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      if (queue.info.preemptMinRuntime() != null) {
        return queue.info.preemptMinRuntime();
      }
    }
    return Duration.ZERO;
  }

  /** The same for reclaim. */
  public Duration reclaimMinRuntime() {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      if (queue.info.reclaimMinRuntime() != null) {
        return queue.info.reclaimMinRuntime();
      }
    }
    return Duration.ZERO;
  }

  /** This queue and its ancestors, nearest first. */
  public List<QueueState> selfAndAncestors() {
    List<QueueState> chain = new ArrayList<>();
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      chain.add(queue);
    }
    return chain;
  }

  void linkUnder(QueueState newParent) {
    this.parent = newParent;
    newParent.children.add(this);
  }

  void markProblem(String description, boolean blocksSubtree) {
    if (problem == null) {
      this.problem = description;
      this.problemBlocksSubtree = blocksSubtree;
    }
  }

  void addAllocated(long[] amount, boolean preemptible) {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      ResourceDimensions.add(queue.allocated, amount);
      if (!preemptible) {
        ResourceDimensions.add(queue.allocatedNonPreemptible, amount);
      }
    }
  }

  void subtractAllocated(long[] amount, boolean preemptible) {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      ResourceDimensions.subtract(queue.allocated, amount);
      if (!preemptible) {
        ResourceDimensions.subtract(queue.allocatedNonPreemptible, amount);
      }
    }
  }

  void addRequested(long[] amount) {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      ResourceDimensions.add(queue.requested, amount);
    }
  }

  void addInqueue(long[] amount, boolean preemptible) {
    for (QueueState queue = this; queue != null; queue = queue.parent) {
      ResourceDimensions.add(queue.inqueue, amount);
      if (!preemptible) {
        ResourceDimensions.add(queue.inqueueNonPreemptible, amount);
      }
    }
  }

  @Override
  public String toString() {
    return info.name();
  }
}
