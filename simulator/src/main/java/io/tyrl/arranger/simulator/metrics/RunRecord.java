package io.tyrl.arranger.simulator.metrics;

import java.util.List;

/**
 * Everything one simulated run recorded.
 *
 * @param queues queue names, the order of the points' per-queue arrays
 * @param queueWeights their weights, same order
 * @param capacityGpu the cluster's GPUs
 * @param capacityMilliCpu the cluster's millicores
 * @param windowEnd the last submission: the end of the measurement window
 * @param endSeconds when the run stopped (every job ended, or the drain limit)
 * @param preemptions victims (jobs or sets of workers) evicted for a job of their own queue
 * @param reclaims victims evicted for a job of another queue
 * @param cycles scheduling cycles run
 * @param wallMillis real time the run took
 * @param cpuMillis CPU time the run's thread used (the machine may be shared: wall time alone
 *     misleads)
 */
public record RunRecord(
    String variant,
    List<String> queues,
    List<Integer> queueWeights,
    long capacityGpu,
    long capacityMilliCpu,
    double windowEnd,
    double endSeconds,
    List<AllocationPoint> points,
    List<JobOutcome> jobs,
    int preemptions,
    int reclaims,
    long cycles,
    long wallMillis,
    long cpuMillis) {

  public RunRecord {
    queues = List.copyOf(queues);
    queueWeights = List.copyOf(queueWeights);
    points = List.copyOf(points);
    jobs = List.copyOf(jobs);
  }
}
