package io.tyrl.arranger.simulator.metrics;

import io.tyrl.arranger.simulator.trace.QueueTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one simulated run recorded.
 *
 * @param tree the trace's queue tree (as the trace gives it, whatever the scheduler was given)
 * @param evictions every victim of preemption and reclaim, in the order chosen
 * @param queues the leaf queues' names, the order of the points' per-queue arrays
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
    QueueTree tree,
    List<Eviction> evictions,
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
    evictions = List.copyOf(evictions);
    queues = List.copyOf(queues);
    queueWeights = List.copyOf(queueWeights);
    points = List.copyOf(points);
    jobs = List.copyOf(jobs);
    if (tree == null) {
      Map<String, Integer> weights = new LinkedHashMap<>();
      for (int q = 0; q < queues.size(); q++) {
        weights.put(queues.get(q), queueWeights.get(q));
      }
      tree = QueueTree.flat(weights);
    }
  }

  /** A run over top-level queues of these weights that evicted nothing. */
  public RunRecord(
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
    this(
        variant,
        null,
        List.of(),
        queues,
        queueWeights,
        capacityGpu,
        capacityMilliCpu,
        windowEnd,
        endSeconds,
        points,
        jobs,
        preemptions,
        reclaims,
        cycles,
        wallMillis,
        cpuMillis);
  }
}
