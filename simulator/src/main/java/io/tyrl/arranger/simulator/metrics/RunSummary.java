package io.tyrl.arranger.simulator.metrics;

import java.util.List;

/**
 * The quality of one run; docs/simulator.md defines each figure. Fractions are in [0, 1], times in
 * seconds.
 *
 * @param gpuAlloc mean fraction of GPUs held by started jobs over [0, last submission]
 * @param cpuAlloc the same for cpu
 * @param gpuReserved mean fraction of GPUs held by jobs still waiting for their minimum
 * @param greedyBound {@link GreedyBound}'s mean GPU fraction over the same window
 * @param deadlocks jobs that held part of their gang longer than the deadlock threshold
 * @param shareDeviation the largest queue's mean |held − deserved| GPUs, as a fraction of the
 *     cluster's
 * @param waitP50 queueing delay (submit → minimum placed) over all jobs that were not failed; a job
 *     never started counts with its wait until the run's end
 * @param neverStarted jobs neither started nor failed by the run's end
 */
public record RunSummary(
    String variant,
    int jobs,
    double gpuAlloc,
    double cpuAlloc,
    double gpuReserved,
    double greedyBound,
    int deadlocks,
    double shareDeviation,
    double waitP50,
    double waitP95,
    double jctP50,
    double jctP95,
    int preemptions,
    int reclaims,
    int restarts,
    int failed,
    int neverStarted,
    long cycles,
    long wallMillis,
    long cpuMillis,
    List<QueueSummary> queues) {

  public RunSummary {
    queues = List.copyOf(queues);
  }

  /** gpuAlloc as a fraction of the greedy bound. */
  public double ofGreedyBound() {
    return greedyBound > 0 ? gpuAlloc / greedyBound : Double.NaN;
  }
}
