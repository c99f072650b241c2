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
 */
public final class Tiers {

  record WeightedScore(NodeScoreFn fn, double weight) {}

  static final class Tier {
    final List<JobOrderFn> jobOrders = new ArrayList<>();
    final List<QueueOrderFn> queueOrders = new ArrayList<>();
    final List<NodeFilterFn> nodeFilters = new ArrayList<>();
    final List<PredicateFn> predicates = new ArrayList<>();
    final List<WeightedScore> nodeScores = new ArrayList<>();
    final List<VictimsFn> preemptable = new ArrayList<>();
    final List<VictimsFn> reclaimable = new ArrayList<>();
    final List<JobReadyFn> jobReady = new ArrayList<>();
    final List<JobPipelinedFn> jobPipelined = new ArrayList<>();
    final List<JobValidFn> jobValid = new ArrayList<>();
    final List<OverusedFn> overused = new ArrayList<>();
    final List<JobEnqueueableFn> jobEnqueueable = new ArrayList<>();
  }

  private final List<Tier> tiers = new ArrayList<>();
  private NodeFilterFn[] nodeFilters = new NodeFilterFn[0];
  private PredicateFn[] predicates = new PredicateFn[0];
  private NodeScoreFn[] scoreFns = new NodeScoreFn[0];
  private double[] scoreWeights = new double[0];

  /** Hooks registering into the latest tier. */
  public PluginHooks hooksFor(String pluginName) {
    if (tiers.isEmpty()) {
      tiers.add(new Tier());
    }
    return new PluginHooks(tiers.get(tiers.size() - 1), pluginName);
  }

  /** Starts the next tier for the plugins that follow. */
  public void nextTier() {
    tiers.add(new Tier());
  }

  /** Flattens the all-must-pass and additive functions into arrays for the hot path; call once plugins are open. */
  void seal() {
    List<NodeFilterFn> filters = new ArrayList<>();
    List<PredicateFn> checks = new ArrayList<>();
    List<WeightedScore> scores = new ArrayList<>();
    for (Tier tier : tiers) {
      filters.addAll(tier.nodeFilters);
      checks.addAll(tier.predicates);
      scores.addAll(tier.nodeScores);
    }
    nodeFilters = filters.toArray(NodeFilterFn[]::new);
    predicates = checks.toArray(PredicateFn[]::new);
    scoreFns = new NodeScoreFn[scores.size()];
    scoreWeights = new double[scores.size()];
    for (int i = 0; i < scores.size(); i++) {
      scoreFns[i] = scores.get(i).fn();
      scoreWeights[i] = scores.get(i).weight();
    }
  }

  public int compareJobs(JobState first, JobState second) {
    for (Tier tier : tiers) {
      for (JobOrderFn fn : tier.jobOrders) {
        int result = fn.compare(first, second);
        if (result != 0) {
          return result;
        }
      }
    }
    return 0;
  }

  public int compareQueues(QueueState first, QueueState second) {
    for (Tier tier : tiers) {
      for (QueueOrderFn fn : tier.queueOrders) {
        int result = fn.compare(first, second);
        if (result != 0) {
          return result;
        }
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
    return victims(preemptor, candidates, true);
  }

  public List<TaskState> reclaimableVictims(TaskState preemptor, List<TaskState> candidates) {
    return victims(preemptor, candidates, false);
  }

  private List<TaskState> victims(TaskState preemptor, List<TaskState> candidates, boolean preempting) {
    for (Tier tier : tiers) {
      List<VictimsFn> fns = preempting ? tier.preemptable : tier.reclaimable;
      if (fns.isEmpty()) {
        continue;
      }
      Set<TaskState> intersection = null;
      for (VictimsFn fn : fns) {
        Set<TaskState> allowed = new LinkedHashSet<>(fn.allowed(preemptor, candidates));
        if (intersection == null) {
          intersection = allowed;
        } else {
          intersection.retainAll(allowed);
        }
      }
      // The first tier with a victim function decides, even when it allows none: a refusal there (the
      // conformance plugin sparing kube-system, say) is a veto, not a hand-over to a later tier.
      return List.copyOf(intersection);
    }
    return List.of();
  }

  /** All registered functions must agree; with none registered, a job is ready once its leader is placed. */
  public boolean isJobReady(JobState job) {
    boolean anyRegistered = false;
    for (Tier tier : tiers) {
      for (JobReadyFn fn : tier.jobReady) {
        anyRegistered = true;
        if (!fn.isReady(job)) {
          return false;
        }
      }
    }
    return anyRegistered || job.isLeaderPlaced();
  }

  /** All registered functions must agree; with none registered, partial placements are discarded. */
  public boolean mayKeepPartialPlacements(JobState job) {
    boolean anyRegistered = false;
    for (Tier tier : tiers) {
      for (JobPipelinedFn fn : tier.jobPipelined) {
        anyRegistered = true;
        if (!fn.mayKeepPartialPlacements(job)) {
          return false;
        }
      }
    }
    return anyRegistered;
  }

  public Optional<String> invalidReason(JobState job) {
    for (Tier tier : tiers) {
      for (JobValidFn fn : tier.jobValid) {
        Optional<String> reason = fn.invalidReason(job);
        if (reason.isPresent()) {
          return reason;
        }
      }
    }
    return Optional.empty();
  }

  public boolean isOverused(QueueState queue) {
    for (Tier tier : tiers) {
      for (OverusedFn fn : tier.overused) {
        if (fn.isOverused(queue)) {
          return true;
        }
      }
    }
    return false;
  }

  public Optional<String> enqueueRefusal(JobState job) {
    for (Tier tier : tiers) {
      for (JobEnqueueableFn fn : tier.jobEnqueueable) {
        Optional<String> refusal = fn.refusal(job);
        if (refusal.isPresent()) {
          return refusal;
        }
      }
    }
    return Optional.empty();
  }
}
