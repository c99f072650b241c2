package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.util.List;
import java.util.Map;

/**
 * One TYJob of a leader and many actors (RL runs with thousands are common), from its create until
 * every pod is Running: the scheduler places it, the controller creates the leader, then every
 * worker once the leader has an IP, and the benchmark's kubelet reports each pod Running as soon as
 * it exists on its node. Reports {@code big-job actors=<n> seconds-to-all-running=<s>}.
 */
final class BigJobPhase implements Phase {

  static final String NAME = "big-job";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;
  private final ArrangerServices services;
  private final ArrangerPhase cleaner;

  BigJobPhase(
      BenchCluster cluster,
      BenchmarkOptions options,
      ArrangerServices services,
      ArrangerPhase cleaner) {
    this.cluster = cluster;
    this.options = options;
    this.services = services;
    this.cleaner = cleaner;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * One big job, not counted, before the runs: the services' warm-up of small jobs does not run a
   * reconcile over thousands of pods, and the first big job ran 8–20 s slower than the next ones in
   * every earlier measurement (42.6 / 34.3 / 29.8 s; 60.8 / 52.1 / 38.4 s).
   */
  void warmUp() {
    progress("[big-job] warm-up: one big job, not counted");
    runOnce(cluster.createNamespace("bench-warmup-" + NAME), 0);
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    int actors = options.bigJobActors();
    int pods = actors + 1;
    progress(
        "[big-job %d/%d] creating one TYJob of a leader and %d actors on %d nodes",
        repeat, options.repeats(), actors, options.nodes());
    CpuSeconds cpu = new CpuSeconds(cluster.controlPlane(), services.pids());
    PhaseRun run;
    try (BenchKubelet kubelet = BenchKubelet.everyPod(cluster.controlPlane().adminClient());
        BindingWatch watch = new BindingWatch(cluster.api(), namespace, kubelet::onBound)) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<Long, Double> cpuBefore = cpu.now();
      long start = System.nanoTime();
      cluster.api().post(0, Manifests.tyJobsPath(namespace), Manifests.bigTyJob(namespace, actors));
      long created = System.nanoTime();
      long bound =
          watch.awaitBound(
              pods,
              options.timeout(),
              () ->
                  progress(
                      "  %d / %d pods exist with a node, %d Running",
                      watch.bound(), pods, kubelet.started()));
      long end =
          kubelet.awaitStarted(
              pods,
              options.timeout(),
              () -> progress("  %d / %d pods Running", kubelet.started(), pods));
      Map<Long, Double> cpuAfter = cpu.now();
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes =
          PromText.diff(metricsBefore.apiServerWrites(), metricsAfter.apiServerWrites());
      // The benchmark's own writes: the create and one pods/status PATCH per pod (the kubelet's).
      run =
          new PhaseRun(
              NAME,
              pods,
              seconds(start, end),
              seconds(start, created),
              writes,
              1 + pods,
              Map.of(),
              cpu.spent(cpuBefore, cpuAfter),
              List.of(),
              List.of(),
              Map.of(),
              Map.of(),
              PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress(
          "[big-job %d/%d] every pod with a node %.2f s after the create, every pod Running after"
              + " %.2f s; %.2f writes/pod besides the benchmark's; TYJob writes %.0f; writes: %s; %s",
          repeat,
          options.repeats(),
          seconds(start, bound),
          run.seconds(),
          run.serviceWritesPerPod(),
          run.tyJobWrites(false),
          Descriptions.writes(writes),
          Descriptions.cpu(run));
      progress(
          "[big-job %d/%d] %s",
          repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      cleaner.deleteJobsAndPods(namespace, 1, watch);
    }
    return run;
  }
}
