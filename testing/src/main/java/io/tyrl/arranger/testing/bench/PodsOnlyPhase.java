package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the pods of Arranger's jobs cost with nothing decided: the same number of pods as a run,
 * shaped as the controller makes them (its labels, an owner reference, its environment) and created
 * by the benchmark with their nodes preset, while both services run and watch them. No TYJob
 * exists, so nothing is scheduled, reconciled or written by the services. An upper bound on what
 * any placement by these two services can reach on this machine: each pod of a run costs at least
 * this, and the run adds its TYJobs, decisions and status writes.
 */
final class PodsOnlyPhase implements Phase {

  static final String NAME = "pods-only";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;
  private final ArrangerServices services;

  PodsOnlyPhase(BenchCluster cluster, BenchmarkOptions options, ArrangerServices services) {
    this.cluster = cluster;
    this.options = options;
    this.services = services;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    int jobs = options.pods() / 8;
    int pods = jobs * 8;
    progress(
        "[pods-only %d/%d] creating %d pods shaped as Arranger's, nodes preset, both services watching",
        repeat, options.repeats(), pods);
    CpuSeconds cpu = new CpuSeconds(cluster.controlPlane(), services.pids());
    PhaseRun run;
    try (BindingWatch watch = new BindingWatch(cluster.api(), namespace)) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<Long, Double> cpuBefore = cpu.now();
      long start = System.nanoTime();
      cluster
          .api()
          .postAll(
              pods,
              i -> "/api/v1/namespaces/" + namespace + "/pods",
              i -> Manifests.arrangerShapedPod(namespace, i, cluster.nodeFor(i)));
      long created = System.nanoTime();
      long end =
          watch.awaitBound(
              pods, options.timeout(), () -> progress("  %d / %d pods seen", watch.bound(), pods));
      Map<Long, Double> cpuAfter = cpu.now();
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes =
          PromText.diff(metricsBefore.apiServerWrites(), metricsAfter.apiServerWrites());
      run =
          new PhaseRun(
              NAME,
              pods,
              seconds(start, end),
              seconds(start, created),
              writes,
              pods,
              Map.of(),
              cpu.spent(cpuBefore, cpuAfter),
              List.of(),
              List.of(),
              Map.of(),
              Map.of(),
              PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress(
          "[pods-only %d/%d] %d pods exist and were seen %.2f s after the first create = %.0f pods/s; writes: %s; %s",
          repeat,
          options.repeats(),
          pods,
          run.seconds(),
          run.podsPerSecond(),
          Descriptions.writes(writes),
          Descriptions.cpu(run));
      progress(
          "[pods-only %d/%d] %s",
          repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      cluster.deletePods(namespace, new ArrayList<>(watch.seenNames()));
    }
    return run;
  }
}
