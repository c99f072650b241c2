package io.tyrl.arranger.simulator.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a run's record into its {@link RunSummary}, measured over a window that ends at the last
 * submission: time averages over the window, delays and completion times of the jobs submitted in
 * it; deadlocks, failures and jobs never started over the whole run.
 */
public final class QualityMetrics {

  private QualityMetrics() {}

  /** Measured from the start of the trace. */
  public static RunSummary summarize(RunRecord run, GreedyBound bound) {
    return summarize(run, bound, 0);
  }

  /**
   * Measured from {@code windowStart} (e.g. once the cluster has filled up) to the last submission.
   */
  public static RunSummary summarize(RunRecord run, GreedyBound bound, double windowStart) {
    List<AllocationPoint> points = run.points();
    int n = points.size();
    double[] times = new double[n];
    double[] gpu = new double[n];
    double[] cpu = new double[n];
    double[] reserved = new double[n];
    for (int i = 0; i < n; i++) {
      AllocationPoint point = points.get(i);
      times[i] = point.seconds();
      gpu[i] = point.startedGpu();
      cpu[i] = point.startedMilliCpu();
      reserved[i] = point.reservedGpu();
    }
    double start = windowStart;
    double window = run.windowEnd();
    double capacity = run.capacityGpu();
    double gpuAlloc = StepSeries.mean(times, gpu, start, window) / capacity;
    double cpuAlloc = StepSeries.mean(times, cpu, start, window) / run.capacityMilliCpu();
    double gpuReserved = StepSeries.mean(times, reserved, start, window) / capacity;

    int queues = run.queues().size();
    int[] weights = run.queueWeights().stream().mapToInt(Integer::intValue).toArray();
    double[][] held = new double[queues][n];
    double[][] deserved = new double[queues][n];
    double[][] deviation = new double[queues][n];
    DeservedShares shares = DeservedShares.of(run);
    for (int i = 0; i < n; i++) {
      AllocationPoint point = points.get(i);
      double[] fair = shares.leaves(point);
      for (int q = 0; q < queues; q++) {
        held[q][i] = point.queueHeldGpu()[q];
        deserved[q][i] = fair[q];
        deviation[q][i] = Math.abs(held[q][i] - fair[q]);
      }
    }
    double shareDeviation = 0;
    List<QueueSummary> queueSummaries = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      String name = run.queues().get(q);
      double dev = StepSeries.mean(times, deviation[q], start, window) / capacity;
      shareDeviation = Math.max(shareDeviation, dev);
      double[] waits = waits(run, name, start);
      queueSummaries.add(
          new QueueSummary(
              name,
              weights[q],
              StepSeries.mean(times, held[q], start, window) / capacity,
              StepSeries.mean(times, deserved[q], start, window) / capacity,
              dev,
              Percentiles.of(waits, 50),
              Percentiles.of(waits, 95),
              waits.length));
    }
    double[] waits = waits(run, null, start);
    double[] jcts =
        run.jobs().stream()
            .filter(job -> inWindow(run, job, start))
            .filter(JobOutcome::hasFinished)
            .mapToDouble(job -> job.finished() - job.submitted())
            .toArray();
    int failed = (int) run.jobs().stream().filter(job -> job.failure() != null).count();
    int neverStarted =
        (int) run.jobs().stream().filter(job -> job.failure() == null && !job.hasStarted()).count();
    int deadlocks = (int) run.jobs().stream().filter(JobOutcome::deadlocked).count();
    int restarts = run.jobs().stream().mapToInt(JobOutcome::restarts).sum();
    return new RunSummary(
        run.variant(),
        run.jobs().size(),
        gpuAlloc,
        cpuAlloc,
        gpuReserved,
        bound.meanGpuFraction(start, window),
        deadlocks,
        shareDeviation,
        Percentiles.of(waits, 50),
        Percentiles.of(waits, 95),
        Percentiles.of(jcts, 50),
        Percentiles.of(jcts, 95),
        run.preemptions(),
        run.reclaims(),
        restarts,
        failed,
        neverStarted,
        run.cycles(),
        run.wallMillis(),
        run.cpuMillis(),
        queueSummaries);
  }

  /**
   * Queueing delays of the queue's jobs (all queues for null) submitted in the window that were not
   * failed.
   */
  static double[] waits(RunRecord run, String queue, double windowStart) {
    return run.jobs().stream()
        .filter(job -> queue == null || job.queue().equals(queue))
        .filter(job -> inWindow(run, job, windowStart))
        .filter(job -> job.failure() == null)
        .mapToDouble(job -> (job.hasStarted() ? job.started() : run.endSeconds()) - job.submitted())
        .toArray();
  }

  private static boolean inWindow(RunRecord run, JobOutcome job, double windowStart) {
    return job.submitted() >= windowStart && job.submitted() <= run.windowEnd();
  }
}
