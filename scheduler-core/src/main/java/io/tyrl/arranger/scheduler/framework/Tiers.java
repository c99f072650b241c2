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
import io.tyrl.arranger.scheduler.framework.SessionFunctions.VictimsFn;
import io.tyrl.arranger.scheduler.framework.PluginEntry.Kind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Combines the functions plugins registered, tier by tier, the way kube-batch does:
 * <ul>
 *   <li>orders: the first non-zero comparison wins, in tier order then plugin order;</li>
 *   <li>filters and predicates: all must pass, whatever their tier;</li>
 *   <li>node scores: weighted sum over all plugins;</li>
 *   <li>victims: intersected within a tier; the first tier where any plugin registered a victim function
 *       decides, even when it allows none (as Volcano);</li>
 *   <li>job ready / pipelined / enqueueable: all must agree; overused: any says so; valid: the first
 *       reason found.</li>
 * </ul>
 * Each registration is one {@link PluginEntry}; once plugins are open, {@link #seal()} lays the
 * entries out by kind for the hot path.
 */
public final class Tiers {

  private final List<PluginEntry> entries = new ArrayList<>();
  private int currentTier = -1;
  private boolean sealed;
  /** Per kind (by ordinal), its functions in tier order then plugin order. */
  private PluginEntry[][] byKind = new PluginEntry[Kind.values().length][0];
  private JobOrderFn[] jobOrders = new JobOrderFn[0];
  private QueueOrderFn[] queueOrders = new QueueOrderFn[0];
  private NodeFilterFn[] nodeFilters = new NodeFilterFn[0];
  private PredicateFn[] predicates = new PredicateFn[0];
  private NodeScoreFn[] scoreFns = new NodeScoreFn[0];
  private double[] scoreWeights = new double[0];

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

  void register(PluginEntry entry) {
    if (sealed) {
      // A function registered after the session opened would be seen by some checks and not others.
      throw new IllegalStateException("plugin " + entry.plugin() + " registered a " + entry.kind()
          + " function after the session opened; register in onSessionOpen");
    }
    entries.add(entry);
  }

  /** Lays the entries out by kind for the hot path; call once plugins are open. */
  void seal() {
    sealed = true;
    List<List<PluginEntry>> grouped = new ArrayList<>();
    for (int i = 0; i < Kind.values().length; i++) {
      grouped.add(new ArrayList<>());
    }
    for (PluginEntry entry : entries) {
      grouped.get(entry.kind().ordinal()).add(entry);
    }
    for (Kind kind : Kind.values()) {
      byKind[kind.ordinal()] = grouped.get(kind.ordinal()).toArray(PluginEntry[]::new);
    }
    jobOrders = functions(Kind.JOB_ORDER, JobOrderFn.class).toArray(JobOrderFn[]::new);
    queueOrders = functions(Kind.QUEUE_ORDER, QueueOrderFn.class).toArray(QueueOrderFn[]::new);
    nodeFilters = functions(Kind.NODE_FILTER, NodeFilterFn.class).toArray(NodeFilterFn[]::new);
    predicates = functions(Kind.PREDICATE, PredicateFn.class).toArray(PredicateFn[]::new);
    scoreFns = functions(Kind.NODE_SCORE, NodeScoreFn.class).toArray(NodeScoreFn[]::new);
    PluginEntry[] scores = byKind[Kind.NODE_SCORE.ordinal()];
    scoreWeights = new double[scores.length];
    for (int i = 0; i < scores.length; i++) {
      scoreWeights[i] = scores[i].weight();
    }
  }

  private <F> List<F> functions(Kind kind, Class<F> type) {
    List<F> functions = new ArrayList<>();
    for (PluginEntry entry : byKind[kind.ordinal()]) {
      functions.add(type.cast(entry.fn()));
    }
    return functions;
  }

  public int compareJobs(JobState first, JobState second) {
    for (JobOrderFn fn : jobOrders) {
      int result = fn.compare(first, second);
      if (result != 0) {
        return result;
      }
    }
    return 0;
  }

  public int compareQueues(QueueState first, QueueState second) {
    for (QueueOrderFn fn : queueOrders) {
      int result = fn.compare(first, second);
      if (result != 0) {
        return result;
      }
    }
    return 0;
  }

  /** The verdict of every static filter: the first rejection, and whether any rejection is permanent. */
  StaticVerdict filter(PlacementConstraints constraints, NodeState node) {
    PredicateResult first = PredicateResult.FITS;
    boolean permanent = false;
    for (NodeFilterFn fn : nodeFilters) {
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
    for (PredicateFn fn : predicates) {
      PredicateResult result = fn.check(task, node);
      if (!result.fits()) {
        return result;
      }
    }
    return PredicateResult.FITS;
  }

  public double score(TaskState task, NodeState node) {
    double total = 0;
    for (int i = 0; i < scoreFns.length; i++) {
      total += scoreWeights[i] * scoreFns[i].score(task, node);
    }
    return total;
  }

  public List<TaskState> preemptableVictims(TaskState preemptor, List<TaskState> candidates) {
    return victims(Kind.PREEMPTABLE, preemptor, candidates);
  }

  public List<TaskState> reclaimableVictims(TaskState preemptor, List<TaskState> candidates) {
    return victims(Kind.RECLAIMABLE, preemptor, candidates);
  }

  private List<TaskState> victims(Kind kind, TaskState preemptor, List<TaskState> candidates) {
    PluginEntry[] functions = byKind[kind.ordinal()];
    if (functions.length == 0) {
      return List.of();
    }
    // The first tier with a victim function decides, even when it allows none: a refusal there (the
    // conformance plugin sparing kube-system, say) is a veto, not a hand-over to a later tier.
    int decidingTier = functions[0].tier();
    Set<TaskState> intersection = null;
    for (PluginEntry entry : functions) {
      if (entry.tier() != decidingTier) {
        break;
      }
      Set<TaskState> allowed = new LinkedHashSet<>(((VictimsFn) entry.fn()).allowed(preemptor, candidates));
      if (intersection == null) {
        intersection = allowed;
      } else {
        intersection.retainAll(allowed);
      }
    }
    return List.copyOf(intersection);
  }

  /** All registered functions must agree; with none registered, a job is ready once its leader is placed. */
  public boolean isJobReady(JobState job) {
    PluginEntry[] functions = byKind[Kind.JOB_READY.ordinal()];
    for (PluginEntry entry : functions) {
      if (!((JobReadyFn) entry.fn()).isReady(job)) {
        return false;
      }
    }
    return functions.length > 0 || job.isLeaderPlaced();
  }

  /** All registered functions must agree; with none registered, partial placements are discarded. */
  public boolean mayKeepPartialPlacements(JobState job) {
    PluginEntry[] functions = byKind[Kind.JOB_PIPELINED.ordinal()];
    for (PluginEntry entry : functions) {
      if (!((JobPipelinedFn) entry.fn()).mayKeepPartialPlacements(job)) {
        return false;
      }
    }
    return functions.length > 0;
  }

  public Optional<String> invalidReason(JobState job) {
    for (PluginEntry entry : byKind[Kind.JOB_VALID.ordinal()]) {
      Optional<String> reason = ((JobValidFn) entry.fn()).invalidReason(job);
      if (reason.isPresent()) {
        return reason;
      }
    }
    return Optional.empty();
  }

  public boolean isOverused(QueueState queue) {
    for (PluginEntry entry : byKind[Kind.OVERUSED.ordinal()]) {
      if (((OverusedFn) entry.fn()).isOverused(queue)) {
        return true;
      }
    }
    return false;
  }

  public Optional<String> enqueueRefusal(JobState job) {
    for (PluginEntry entry : byKind[Kind.JOB_ENQUEUEABLE.ordinal()]) {
      Optional<String> refusal = ((JobEnqueueableFn) entry.fn()).refusal(job);
      if (refusal.isPresent()) {
        return refusal;
      }
    }
    return Optional.empty();
  }
}
