package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobEnqueueableFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobOrderFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobPipelinedFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobReadyFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.JobValidFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.NodeFilterFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.NodeScoreFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.OverusedFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.PredicateFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.QueueOrderFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.ScoreContextFn;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.VictimsFn;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Combines the functions plugins registered, tier by tier, the way kube-batch does:
 *
 * <ul>
 *   <li>orders: the first non-zero comparison wins, in tier order then plugin order;
 *   <li>filters and predicates: all must pass, whatever their tier;
 *   <li>node scores: weighted sum over all plugins;
 *   <li>victims: intersected within a tier; the first tier where any plugin registered a victim
 *       function decides, even when it allows none (as Volcano);
 *   <li>job ready / pipelined / enqueueable: all must agree; overused: any says so; valid: the
 *       first reason found.
 * </ul>
 *
 * Each kind keeps its own typed registrations; once plugins are open, {@link #seal()} closes them
 * and lays out the functions the hot path loops over.
 */
public final class Tiers {

  /** The kinds of function a plugin may register; each combines its own way. */
  enum Kind {
    JOB_ORDER,
    QUEUE_ORDER,
    NODE_FILTER,
    PREDICATE,
    NODE_SCORE,
    PREEMPTABLE,
    RECLAIMABLE,
    JOB_READY,
    JOB_PIPELINED,
    JOB_VALID,
    OVERUSED,
    JOB_ENQUEUEABLE
  }

  /**
   * The functions of one kind, in tier order then plugin order; closed to registration once the
   * session opens.
   */
  final class Registrations<F> {
    private final Kind kind;
    private final List<PluginEntry<F>> entries = new ArrayList<>();

    private Registrations(Kind kind) {
      this.kind = kind;
    }

    void register(PluginEntry<F> entry) {
      if (sealed) {
        // A function registered after the session opened would be seen by some checks and not
        // others.
        throw new IllegalStateException(
            "plugin "
                + entry.plugin()
                + " registered a "
                + kind
                + " function after the session opened; register in onSessionOpen");
      }
      entries.add(entry);
    }

    /** The functions alone, for the loops of the hot path. */
    F[] functions(IntFunction<F[]> newArray) {
      F[] functions = newArray.apply(entries.size());
      for (int i = 0; i < functions.length; i++) {
        functions[i] = entries.get(i).fn();
      }
      return functions;
    }
  }

  private int currentTier = -1;
  private boolean sealed;
  final Registrations<JobOrderFn> jobOrders = new Registrations<>(Kind.JOB_ORDER);
  final Registrations<QueueOrderFn> queueOrders = new Registrations<>(Kind.QUEUE_ORDER);
  final Registrations<NodeFilterFn> nodeFilters = new Registrations<>(Kind.NODE_FILTER);
  final Registrations<PredicateFn> predicates = new Registrations<>(Kind.PREDICATE);
  final Registrations<PredicateFn> neighbourPredicates = new Registrations<>(Kind.PREDICATE);
  final Registrations<NodeScoreFn> nodeScores = new Registrations<>(Kind.NODE_SCORE);

  /** What each node score registered with one says it reads beyond the node. */
  final Map<NodeScoreFn, ScoreContextFn> scoreContexts = new IdentityHashMap<>();

  final Registrations<VictimsFn> preemptableVictims = new Registrations<>(Kind.PREEMPTABLE);
  final Registrations<VictimsFn> reclaimableVictims = new Registrations<>(Kind.RECLAIMABLE);
  final Registrations<JobReadyFn> jobReady = new Registrations<>(Kind.JOB_READY);
  final Registrations<JobPipelinedFn> jobPipelined = new Registrations<>(Kind.JOB_PIPELINED);
  final Registrations<JobValidFn> jobValid = new Registrations<>(Kind.JOB_VALID);
  final Registrations<OverusedFn> overused = new Registrations<>(Kind.OVERUSED);
  final Registrations<JobEnqueueableFn> jobEnqueueable = new Registrations<>(Kind.JOB_ENQUEUEABLE);
  private JobOrderFn[] jobOrderFns = new JobOrderFn[0];
  private QueueOrderFn[] queueOrderFns = new QueueOrderFn[0];
  private NodeFilterFn[] nodeFilterFns = new NodeFilterFn[0];
  private PredicateFn[] predicateFns = new PredicateFn[0];
  private PredicateFn[] neighbourPredicateFns = new PredicateFn[0];
  private NodeScoreFn[] scoreFns = new NodeScoreFn[0];
  private double[] scoreWeights = new double[0];
  private ScoreContextFn[] scoreContextFns = new ScoreContextFn[0];
  private JobReadyFn[] jobReadyFns = new JobReadyFn[0];
  private JobPipelinedFn[] jobPipelinedFns = new JobPipelinedFn[0];
  private JobValidFn[] jobValidFns = new JobValidFn[0];
  private OverusedFn[] overusedFns = new OverusedFn[0];
  private JobEnqueueableFn[] jobEnqueueableFns = new JobEnqueueableFn[0];

  /** Hooks registering into the latest tier. */
  public PluginHooks hooksFor(String pluginName) {
    if (currentTier < 0) {
      currentTier = 0;
    }
    return new PluginHooks(this, pluginName, currentTier);
  }

  /** Starts the next tier for the plugins that follow. */
  public void nextTier() {
    currentTier++;
  }

  /**
   * Closes registration and lays the functions the hot path loops over out in arrays; call once
   * plugins are open.
   */
  void seal() {
    sealed = true;
    jobOrderFns = jobOrders.functions(JobOrderFn[]::new);
    queueOrderFns = queueOrders.functions(QueueOrderFn[]::new);
    nodeFilterFns = nodeFilters.functions(NodeFilterFn[]::new);
    predicateFns = predicates.functions(PredicateFn[]::new);
    neighbourPredicateFns = neighbourPredicates.functions(PredicateFn[]::new);
    scoreFns = nodeScores.functions(NodeScoreFn[]::new);
    jobReadyFns = jobReady.functions(JobReadyFn[]::new);
    jobPipelinedFns = jobPipelined.functions(JobPipelinedFn[]::new);
    jobValidFns = jobValid.functions(JobValidFn[]::new);
    overusedFns = overused.functions(OverusedFn[]::new);
    jobEnqueueableFns = jobEnqueueable.functions(JobEnqueueableFn[]::new);
    scoreWeights = new double[scoreFns.length];
    scoreContextFns = new ScoreContextFn[scoreFns.length];
    for (int i = 0; i < scoreFns.length; i++) {
      scoreWeights[i] = nodeScores.entries.get(i).weight();
      scoreContextFns[i] = scoreContexts.get(scoreFns[i]);
    }
  }

  public int compareJobs(JobState first, JobState second) {
    for (JobOrderFn fn : jobOrderFns) {
      int result = fn.compare(first, second);
      if (result != 0) {
        return result;
      }
    }
    return 0;
  }

  public int compareQueues(QueueState first, QueueState second) {
    for (QueueOrderFn fn : queueOrderFns) {
      int result = fn.compare(first, second);
      if (result != 0) {
        return result;
      }
    }
    return 0;
  }

  /**
   * The verdict of every static filter: the first rejection, and whether any rejection is
   * permanent.
   */
  StaticVerdict filter(PlacementConstraints constraints, NodeState node) {
    PredicateResult first = PredicateResult.FITS;
    boolean permanent = false;
    for (NodeFilterFn fn : nodeFilterFns) {
      PredicateResult result = fn.filter(constraints, node);
      if (!result.fits()) {
        if (first.fits()) {
          first = result;
        }
        permanent |= !result.isTransient();
      }
    }
    return new StaticVerdict(first, permanent);
  }

  record StaticVerdict(PredicateResult first, boolean permanentlyRejected) {}

  /** The first dynamic predicate that rejects, or {@link PredicateResult#FITS}. */
  public PredicateResult check(TaskState task, NodeState node) {
    for (PredicateFn fn : predicateFns) {
      PredicateResult result = fn.check(task, node);
      if (!result.fits()) {
        return result;
      }
    }
    return PredicateResult.FITS;
  }

  /**
   * The first of the dynamic predicates that judge a pod by the other pods around it (inter-pod
   * affinity, topology spread, host ports) that rejects, or {@link PredicateResult#FITS}: what
   * preemption asks of a node once its victims are gone, their room being counted apart.
   */
  public PredicateResult checkNeighbours(TaskState task, NodeState node) {
    for (PredicateFn fn : neighbourPredicateFns) {
      PredicateResult result = fn.check(task, node);
      if (!result.fits()) {
        return result;
      }
    }
    return PredicateResult.FITS;
  }

  /**
   * What the node scores read beyond each node for this pod, one value per score; null when some
   * score did not say, or says its value must not be kept: then no score for the pod is kept.
   */
  public long[] scoreContext(TaskState task) {
    long[] context = new long[scoreContextFns.length];
    for (int i = 0; i < scoreContextFns.length; i++) {
      ScoreContextFn fn = scoreContextFns[i];
      long value = fn == null ? ScoreContextFn.NOT_KEPT : fn.context(task);
      if (value == ScoreContextFn.NOT_KEPT) {
        return null;
      }
      context[i] = value;
    }
    return context;
  }

  public double score(TaskState task, NodeState node) {
    double total = 0;
    for (int i = 0; i < scoreFns.length; i++) {
      total += scoreWeights[i] * scoreFns[i].score(task, node);
    }
    return total;
  }

  public List<TaskState> preemptableVictims(TaskState preemptor, List<TaskState> candidates) {
    return victims(preemptableVictims.entries, preemptor, candidates);
  }

  public List<TaskState> reclaimableVictims(TaskState preemptor, List<TaskState> candidates) {
    return victims(reclaimableVictims.entries, preemptor, candidates);
  }

  /** False when no plugin chooses preemption victims: preempt can then evict no one. */
  public boolean choosesPreemptionVictims() {
    return !preemptableVictims.entries.isEmpty();
  }

  private static List<TaskState> victims(
      List<PluginEntry<VictimsFn>> functions, TaskState preemptor, List<TaskState> candidates) {
    if (functions.isEmpty()) {
      return List.of();
    }
    // The first tier with a victim function decides, even when it allows none: a refusal there (the
    // conformance plugin sparing kube-system, say) is a veto, not a hand-over to a later tier.
    int decidingTier = functions.get(0).tier();
    Set<TaskState> intersection = null;
    for (PluginEntry<VictimsFn> entry : functions) {
      if (entry.tier() != decidingTier) {
        break;
      }
      Set<TaskState> allowed = new LinkedHashSet<>(entry.fn().allowed(preemptor, candidates));
      if (intersection == null) {
        intersection = allowed;
      } else {
        intersection.retainAll(allowed);
      }
    }
    return List.copyOf(intersection);
  }

  /**
   * All registered functions must agree; with none registered, a job is ready once its leader is
   * placed.
   */
  public boolean isJobReady(JobState job) {
    for (JobReadyFn fn : jobReadyFns) {
      if (!fn.isReady(job)) {
        return false;
      }
    }
    return jobReadyFns.length > 0 || job.isLeaderPlaced();
  }

  /**
   * All registered functions must agree; with none registered, partial placements are discarded.
   */
  public boolean mayKeepPartialPlacements(JobState job) {
    for (JobPipelinedFn fn : jobPipelinedFns) {
      if (!fn.mayKeepPartialPlacements(job)) {
        return false;
      }
    }
    return jobPipelinedFns.length > 0;
  }

  public Optional<String> invalidReason(JobState job) {
    for (JobValidFn fn : jobValidFns) {
      Optional<String> reason = fn.invalidReason(job);
      if (reason.isPresent()) {
        return reason;
      }
    }
    return Optional.empty();
  }

  public boolean isOverused(QueueState queue) {
    for (OverusedFn fn : overusedFns) {
      if (fn.isOverused(queue)) {
        return true;
      }
    }
    return false;
  }

  public Optional<String> enqueueRefusal(JobState job) {
    for (JobEnqueueableFn fn : jobEnqueueableFns) {
      Optional<String> refusal = fn.refusal(job);
      if (refusal.isPresent()) {
        return refusal;
      }
    }
    return Optional.empty();
  }
}
