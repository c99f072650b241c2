package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.util.List;
import java.util.Map;

/**
 * The API server's raw create ceiling: pods with {@code spec.nodeName} preset, created by the
 * benchmark's tight concurrent client with no scheduler running. No placement can be faster than
 * its pods can be created, so the other phases are measured against this one.
 */
final class CeilingPhase implements Phase {

  static final String NAME = "ceiling";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;

  CeilingPhase(BenchCluster cluster, BenchmarkOptions options) {
    this.cluster = cluster;
    this.options = options;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    int pods = options.pods();
    progress(
        "[ceiling %d/%d] creating %d pods with spec.nodeName preset",
        repeat, options.repeats(), pods);
    CpuSeconds cpu = new CpuSeconds(cluster.controlPlane(), Map.of());
    PromText metricsBefore = cluster.apiServerMetrics();
    Map<Long, Double> cpuBefore = cpu.now();
    long start = System.nanoTime();
    cluster
        .api()
        .postAll(
            pods,
            i -> "/api/v1/namespaces/" + namespace + "/pods",
            i -> Manifests.plainPod(i, cluster.nodeFor(i)));
    long end = System.nanoTime();
    Map<Long, Double> cpuAfter = cpu.now();
    PromText metricsAfter = cluster.apiServerMetrics();
    Map<String, Double> writes =
        PromText.diff(metricsBefore.apiServerWrites(), metricsAfter.apiServerWrites());
    PhaseRun run =
        new PhaseRun(
            NAME,
            pods,
            seconds(start, end),
            seconds(start, end),
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
        "[ceiling %d/%d] %d pods in %.2f s = %.0f pods/s; %s",
        repeat, options.repeats(), pods, run.seconds(), run.podsPerSecond(), Descriptions.cpu(run));
    cluster.deletePods(namespace, Manifests.plainPodNames(pods));
    return run;
  }
}
