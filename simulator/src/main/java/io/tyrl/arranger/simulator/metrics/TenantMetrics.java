package io.tyrl.arranger.simulator.metrics;

import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures how a run served its queue tree, per queue and per level: share deviation from {@link
 * TreeFairShare}'s fair share, guarantee violations, core and surplus evictions, waits.
 *
 * <p>A queue is <b>below its guarantee</b> while it asks for at least its guarantee and holds fewer
 * GPUs than that; a stretch below that lasts longer than the grace is one <b>violation</b>. A
 * stricter count, <b>owed violations</b>, also holds a queue that asks for less than its guarantee
 * to all it asks: the stretches in which it holds fewer GPUs than min(guarantee, demand). The grace
 * is what even a scheduler that honours guarantees at once needs: the cycle that sees the demand
 * chooses victims, the victims take the pod termination time to go, and a later cycle places the
 * job — so {@code graceCycles} loop periods plus the pod termination time (see docs/simulator.md).
 */
public final class TenantMetrics {

  /**
   * Loop periods a queue may spend below its guarantee besides the victims' termination: the cycle
   * that chooses victims, the one that places once they are gone, and one for the pacing between.
   */
  public static final int GRACE_CYCLES = 3;

  private TenantMetrics() {}

  /** The grace for a loop of this period whose evicted pods take this long to go. */
  public static double graceSeconds(double periodSeconds, double podTerminationSeconds) {
    return GRACE_CYCLES * periodSeconds + podTerminationSeconds;
  }

  /**
   * @param windowStart shares are averaged over [windowStart, the last submission], as {@link
   *     QualityMetrics} averages; violations and evictions count over the whole run
   */
  public static TenantSummary summarize(RunRecord run, double windowStart, double graceSeconds) {
    QueueTree tree = run.tree();
    List<QueueSpec> queues = tree.queues();
    int n = queues.size();
    TreeFairShare oracle = new TreeFairShare(tree);
    List<AllocationPoint> points = run.points();
    int m = points.size();
    double[] times = new double[m];
    long[][] held = new long[n][m];
    long[][] guaranteed = new long[n][m];
    long[][] owed = new long[n][m];
    double[][] heldD = new double[n][m];
    double[][] fairD = new double[n][m];
    double[][] deviation = new double[n][m];
    for (int i = 0; i < m; i++) {
      AllocationPoint point = points.get(i);
      times[i] = point.seconds();
      long[] heldNow = oracle.subtreeSums(point.queueHeldGpu());
      long[] demandNow = oracle.subtreeSums(point.queueDemandGpu());
      long[] fair = oracle.shares(run.capacityGpu(), point.queueDemandGpu());
      for (int q = 0; q < n; q++) {
        held[q][i] = heldNow[q];
        long guarantee = queues.get(q).guaranteeGpu();
        guaranteed[q][i] = demandNow[q] >= guarantee ? guarantee : 0;
        owed[q][i] = Math.min(guarantee, demandNow[q]);
        heldD[q][i] = heldNow[q];
        fairD[q][i] = fair[q];
        deviation[q][i] = Math.abs(heldNow[q] - fair[q]);
      }
    }
    double capacity = run.capacityGpu();
    double window = run.windowEnd();
    Map<String, Integer> levels = tree.levels();
    List<TenantQueueSummary> summaries = new ArrayList<>();
    int violations = 0;
    int owedViolations = 0;
    double shareDevMax = 0;
    for (int q = 0; q < n; q++) {
      QueueSpec queue = queues.get(q);
      BelowGuarantee below = below(times, held[q], guaranteed[q], run.endSeconds(), graceSeconds);
      BelowGuarantee belowOwed = below(times, held[q], owed[q], run.endSeconds(), graceSeconds);
      violations += below.violations();
      owedViolations += belowOwed.violations();
      double dev = StepSeries.mean(times, deviation[q], windowStart, window) / capacity;
      shareDevMax = Math.max(shareDevMax, Double.isNaN(dev) ? 0 : dev);
      Set<String> leaves = leavesUnder(tree, queue.name());
      double[] waits = waits(run, leaves, windowStart);
      int core = 0;
      int surplus = 0;
      for (Eviction eviction : run.evictions()) {
        if (leaves.contains(eviction.queue())) {
          if (eviction.wholeJob()) {
            core++;
          } else {
            surplus++;
          }
        }
      }
      summaries.add(
          new TenantQueueSummary(
              queue.name(),
              queue.parent(),
              levels.get(queue.name()),
              queue.weight(),
              queue.priority(),
              queue.guaranteeGpu(),
              queue.capabilityGpu(),
              StepSeries.mean(times, heldD[q], windowStart, window) / capacity,
              StepSeries.mean(times, fairD[q], windowStart, window) / capacity,
              dev,
              run.endSeconds() > 0 ? below.seconds() / run.endSeconds() : 0,
              below.violations(),
              below.longestSeconds(),
              belowOwed.violations(),
              core,
              surplus,
              Percentiles.of(waits, 50),
              Percentiles.of(waits, 95),
              waits.length));
    }
    List<LevelSummary> levelSummaries = new ArrayList<>();
    for (int level = 1; level <= tree.depth(); level++) {
      int count = 0;
      double max = 0;
      double sum = 0;
      int levelViolations = 0;
      for (TenantQueueSummary summary : summaries) {
        if (summary.level() == level) {
          count++;
          double dev = Double.isNaN(summary.deviation()) ? 0 : summary.deviation();
          max = Math.max(max, dev);
          sum += dev;
          levelViolations += summary.guaranteeViolations();
        }
      }
      levelSummaries.add(
          new LevelSummary(level, count, max, count == 0 ? 0 : sum / count, levelViolations));
    }
    int core = 0;
    int coreWhileSurplus = 0;
    int coreSurplusCouldAvoid = 0;
    int coreMoved = 0;
    int surplus = 0;
    int surplusPods = 0;
    for (Eviction eviction : run.evictions()) {
      if (eviction.wholeJob()) {
        core++;
        coreWhileSurplus += eviction.surplusElsewhere() ? 1 : 0;
        coreSurplusCouldAvoid += eviction.surplusCouldMakeRoom() ? 1 : 0;
        coreMoved += eviction.moved() ? 1 : 0;
      } else {
        surplus++;
        surplusPods += eviction.pods();
      }
    }
    return new TenantSummary(
        run.variant(),
        graceSeconds,
        violations,
        owedViolations,
        shareDevMax,
        core,
        coreWhileSurplus,
        coreSurplusCouldAvoid,
        coreMoved,
        surplus,
        surplusPods,
        levelSummaries,
        summaries);
  }

  /**
   * The stretches of [0, end] during which a step series {@code held} is below {@code owed} (each
   * value holding from its time until the next): how many last longer than {@code grace}, their
   * total length and the longest.
   */
  public static BelowGuarantee below(
      double[] times, long[] held, long[] owed, double end, double grace) {
    int violations = 0;
    double total = 0;
    double longest = 0;
    double since = Double.NaN;
    for (int i = 0; i <= times.length; i++) {
      double at = i < times.length ? Math.min(times[i], end) : end;
      boolean isBelow = i < times.length && times[i] < end && held[i] < owed[i];
      if (isBelow && Double.isNaN(since)) {
        since = at;
      } else if (!isBelow && !Double.isNaN(since)) {
        double length = at - since;
        total += length;
        longest = Math.max(longest, length);
        if (length > grace) {
          violations++;
        }
        since = Double.NaN;
      }
    }
    return new BelowGuarantee(violations, total, longest);
  }

  /** Stretches below the guarantee: those longer than the grace, and all of them in seconds. */
  public record BelowGuarantee(int violations, double seconds, double longestSeconds) {}

  private static Set<String> leavesUnder(QueueTree tree, String name) {
    Set<String> under = new HashSet<>();
    under.add(name);
    for (QueueSpec queue : tree.queues()) {
      if (queue.parent() != null && under.contains(queue.parent())) {
        under.add(queue.name());
      }
    }
    return under;
  }

  private static double[] waits(RunRecord run, Set<String> queues, double windowStart) {
    return run.jobs().stream()
        .filter(job -> queues.contains(job.queue()))
        .filter(job -> job.submitted() >= windowStart && job.submitted() <= run.windowEnd())
        .filter(job -> job.failure() == null)
        .mapToDouble(job -> (job.hasStarted() ? job.started() : run.endSeconds()) - job.submitted())
        .toArray();
  }
}
