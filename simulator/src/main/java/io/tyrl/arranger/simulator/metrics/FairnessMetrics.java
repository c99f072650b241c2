package io.tyrl.arranger.simulator.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a fairness-over-time run is measured by: each queue's GPU-hours over a period, its part of
 * all the GPU-hours used then against its weight's part, and its jobs' waits.
 */
public final class FairnessMetrics {

  /**
   * One queue over one period.
   *
   * @param gpuHours what it held, integrated
   * @param part its part of what all queues held then, 0..1
   * @param weightPart its weight over the sum of the weights
   */
  public record QueueShare(String queue, double gpuHours, double part, double weightPart) {
    /** How far its part is from its weight's, in percentage points. */
    public double deviationPercent() {
      return 100 * Math.abs(part - weightPart);
    }
  }

  private FairnessMetrics() {}

  /** Each queue's GPU-hours over [start, end] and its part of them all. */
  public static List<QueueShare> shares(RunRecord run, double start, double end) {
    double[] times = new double[run.points().size()];
    for (int i = 0; i < times.length; i++) {
      times[i] = run.points().get(i).seconds();
    }
    double[] gpuHours = new double[run.queues().size()];
    double total = 0;
    double totalWeight = 0;
    for (int q = 0; q < gpuHours.length; q++) {
      double[] held = new double[times.length];
      for (int i = 0; i < times.length; i++) {
        held[i] = run.points().get(i).queueHeldGpu()[q];
      }
      gpuHours[q] = StepSeries.mean(times, held, start, end) * (end - start) / 3600;
      total += gpuHours[q];
      totalWeight += run.queueWeights().get(q);
    }
    List<QueueShare> shares = new ArrayList<>();
    for (int q = 0; q < gpuHours.length; q++) {
      shares.add(
          new QueueShare(
              run.queues().get(q),
              gpuHours[q],
              total == 0 ? 0 : gpuHours[q] / total,
              run.queueWeights().get(q) / totalWeight));
    }
    return shares;
  }

  /** The largest deviation of any queue's part from its weight's, in percentage points. */
  public static double maxDeviationPercent(List<QueueShare> shares) {
    return shares.stream().mapToDouble(QueueShare::deviationPercent).max().orElse(0);
  }

  /**
   * The waits (start less submission; a job never started waits until the run's end) of the queue's
   * jobs submitted in [from, to], failed jobs left out.
   */
  public static double[] waits(RunRecord run, String queue, double from, double to) {
    return run.jobs().stream()
        .filter(job -> job.queue().equals(queue))
        .filter(job -> job.submitted() >= from && job.submitted() <= to)
        .filter(job -> job.failure() == null)
        .mapToDouble(job -> (job.hasStarted() ? job.started() : run.endSeconds()) - job.submitted())
        .toArray();
  }

  /** GPU-hours by queue, in the run's queue order. */
  public static Map<String, Double> gpuHours(List<QueueShare> shares) {
    Map<String, Double> hours = new LinkedHashMap<>();
    shares.forEach(share -> hours.put(share.queue(), share.gpuHours()));
    return hours;
  }
}
