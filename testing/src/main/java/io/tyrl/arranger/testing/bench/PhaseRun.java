package io.tyrl.arranger.testing.bench;

import io.tyrl.arranger.crd.ArrangerResources;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One run of one phase: how long until the last pod had its node, and what it cost the API server,
 * the processes and the scheduler's cycles meanwhile.
 *
 * @param phase the phase's name
 * @param pods the pods of the run
 * @param seconds from the first create until the last pod existed with its node
 * @param createSeconds from the first create until the benchmark's last create returned
 * @param writes the API server's writes by verb and resource until the finish line
 * @param driverWrites how many of those writes were the benchmark's own
 * @param trailingWrites the writes in the settle seconds after the finish line
 * @param cpuSeconds CPU seconds by process ("machine": all of them)
 * @param cycleSeconds each scheduler cycle's duration, end to end, seen during the run
 * @param coreSeconds the core part of each of those cycles
 * @param peaksMiB peak memory by what was measured
 * @param serviceQuantiles the scheduler's own cycle quantiles (p50, p99, max) at the finish line
 * @param calls every API request but watches, by verb and resource
 */
record PhaseRun(
    String phase,
    int pods,
    double seconds,
    double createSeconds,
    Map<String, Double> writes,
    double driverWrites,
    Map<String, Double> trailingWrites,
    Map<String, Double> cpuSeconds,
    List<Double> cycleSeconds,
    List<Double> coreSeconds,
    Map<String, Double> peaksMiB,
    Map<String, Double> serviceQuantiles,
    Map<String, Double> calls) {

  private static final String TYJOBS = ArrangerResources.GROUP + "/" + ArrangerResources.TYJOBS;

  double podsPerSecond() {
    return pods / seconds;
  }

  /** Every API request but watches, by everyone, per pod, until the last pod had its node. */
  double requestsPerPod() {
    return calls.values().stream().mapToDouble(Double::doubleValue).sum() / pods;
  }

  /** Writes of TYJobs (their status above all) per job; the benchmark's creates are not counted. */
  double tyJobWritesPerJob(boolean trailing) {
    return tyJobWrites(trailing) / (pods / 8.0);
  }

  /** Writes of TYJobs (their status above all), the benchmark's creates not counted. */
  double tyJobWrites(boolean trailing) {
    return sum(
        trailing ? trailingWrites : writes,
        key ->
            !key.startsWith("POST ")
                && (key.endsWith(" " + TYJOBS) || key.endsWith(" " + TYJOBS + "/status")));
  }

  /** Events created or counted again (core/v1 and events.k8s.io) per job. */
  double eventsPerJob(boolean trailing) {
    return sum(
            trailing ? trailingWrites : writes,
            key -> key.endsWith(" events") || key.endsWith("/events"))
        / (pods / 8.0);
  }

  private static double sum(Map<String, Double> counts, Predicate<String> key) {
    return counts.entrySet().stream()
        .filter(e -> key.test(e.getKey()))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  double totalWrites() {
    return writes.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** Writes by everything but the benchmark's own creates, per pod. */
  double serviceWritesPerPod() {
    return (totalWrites() - driverWrites) / pods;
  }
}
