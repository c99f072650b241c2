package io.tyrl.arranger.scheduler.framework;

import java.util.List;
import java.util.Optional;

/**
 * The typed functions plugins register with a session; {@link Tiers} says how several of a kind
 * combine.
 */
public final class SessionFunctions {

  private SessionFunctions() {}

  /**
   * Orders jobs of one queue: negative = the first goes first; 0 = this function has no opinion.
   */
  @FunctionalInterface
  public interface JobOrderFn {
    int compare(JobState first, JobState second);
  }

  /** Orders queues: negative = the first is served first; 0 = no opinion. */
  @FunctionalInterface
  public interface QueueOrderFn {
    int compare(QueueState first, QueueState second);
  }

  /**
   * A predicate on what does not change during a cycle — the pod's placement constraints and the
   * node's labels, taints and conditions — so its verdicts are computed once per distinct set of
   * constraints and node, then reused for every pod that asks the same.
   */
  @FunctionalInterface
  public interface NodeFilterFn {
    PredicateResult filter(
        io.tyrl.arranger.scheduler.api.PlacementConstraints constraints, NodeState node);
  }

  /**
   * A predicate on the node's current ledger. Contract: its verdict may only turn from fits to
   * rejected as nodes fill up (never the other way) until something is released — the session
   * relies on this to remember that a request fitted nowhere. A predicate that judges a pod by the
   * pods around it (affinity, spread), whose verdict may turn the other way when a partner is
   * placed, must call {@link NodeSearch#judgePodsByTheirNeighbours()} when its session opens.
   */
  @FunctionalInterface
  public interface PredicateFn {
    PredicateResult check(TaskState task, NodeState node);
  }

  /**
   * Scores a node for a task that fits on it; higher is better. Scores of all plugins add up with
   * weights.
   */
  @FunctionalInterface
  public interface NodeScoreFn {
    double score(TaskState task, NodeState node);
  }

  /**
   * What a node score reads beyond the node itself (everything its change count moves with), the
   * pod's shape and its job's pods on that node: a value that stays the same, for this pod, for as
   * long as what else the score reads does, or {@link #NOT_KEPT} when the score reads something it
   * cannot name so. A score registered with one may be kept for a node while the node's change
   * count and this value stand: the next pod of the same shape of a gang is weighed against the
   * nodes the last one was, and only the nodes that changed are scored again ({@link
   * NodeSearch#findBest}).
   */
  @FunctionalInterface
  public interface ScoreContextFn {
    /** Not to be kept: the score reads more than the node, and cannot say what. */
    long NOT_KEPT = Long.MIN_VALUE;

    /** For a score that reads only the node, the pod's shape and its job's pods on the node. */
    ScoreContextFn NODE_ONLY = task -> 0;

    long context(TaskState task);
  }

  /** From candidate victims, the ones this plugin allows to evict for the preemptor. */
  @FunctionalInterface
  public interface VictimsFn {
    List<TaskState> allowed(TaskState preemptor, List<TaskState> candidates);
  }

  /** True when the job holds enough to start (its gang minimum). */
  @FunctionalInterface
  public interface JobReadyFn {
    boolean isReady(JobState job);
  }

  /** True when a job that is not ready may keep its placements of this cycle anyway. */
  @FunctionalInterface
  public interface JobPipelinedFn {
    boolean mayKeepPartialPlacements(JobState job);
  }

  /** Why the job is invalid, or empty when it is valid. */
  @FunctionalInterface
  public interface JobValidFn {
    Optional<String> invalidReason(JobState job);
  }

  /** True when the queue has had its share and should not be served further in this cycle. */
  @FunctionalInterface
  public interface OverusedFn {
    boolean isOverused(QueueState queue);
  }

  /** Why the job may not be enqueued yet, or empty when it may. */
  @FunctionalInterface
  public interface JobEnqueueableFn {
    Optional<String> refusal(JobState job);
  }
}
