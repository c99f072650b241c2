package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube-scheduler binding plain pods created without a node, until every one is bound: the reference
 * Arranger is compared with, on the same API server and nodes. Measures its pods/s, its writes per
 * pod, its Go heap and RSS, and the CPU it and the control plane spend.
 */
final class KubeSchedulerPhase implements Phase {

  static final String NAME = "kube-scheduler";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;
  private final ComponentProcess scheduler;

  KubeSchedulerPhase(BenchCluster cluster, BenchmarkOptions options, ComponentProcess scheduler) {
    this.cluster = cluster;
    this.options = options;
    this.scheduler = scheduler;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Binds up to 200 pods before the runs, so they measure a warm kube-scheduler as the Arranger
   * phases measure warm services.
   */
  void warmUp() {
    RawApi api = cluster.api();
    int warmup = Math.min(200, options.pods());
    String warmupNamespace = cluster.createNamespace("bench-warmup-kube-scheduler");
    try (BindingWatch watch = new BindingWatch(api, warmupNamespace)) {
      api.postAll(
          warmup,
          i -> "/api/v1/namespaces/" + warmupNamespace + "/pods",
          i -> Manifests.plainPod(i, null));
      watch.awaitBound(warmup, Duration.ofSeconds(120), () -> {});
    }
    progress(
        "[kube-scheduler] up (pid %d, log %s); warm-up of %d pods bound",
        scheduler.pid(), scheduler.log(), warmup);
    cluster.deletePods(warmupNamespace, Manifests.plainPodNames(warmup));
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    RawApi api = cluster.api();
    int pods = options.pods();
    progress(
        "[kube-scheduler %d/%d] creating %d pods without a node", repeat, options.repeats(), pods);
    CpuSeconds cpu = new CpuSeconds(cluster.controlPlane(), Map.of(NAME, scheduler.pid()));
    PhaseRun run;
    try (BindingWatch watch = new BindingWatch(api, namespace);
        Sampler sampler =
            new Sampler(
                List.of(
                    new Sampler.Target(
                        NAME,
                        () -> scheduler.get("/metrics"),
                        "go_memstats_heap_inuse_bytes",
                        Map.of(),
                        List.of())),
                Duration.ofSeconds(1))) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<String, Double> before = metricsBefore.apiServerWrites();
      Map<Long, Double> cpuBefore = cpu.now();
      long start = System.nanoTime();
      api.postAll(
          pods, i -> "/api/v1/namespaces/" + namespace + "/pods", i -> Manifests.plainPod(i, null));
      long created = System.nanoTime();
      long end =
          watch.awaitBound(
              pods, options.timeout(), () -> progress("  %d / %d pods bound", watch.bound(), pods));
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes = PromText.diff(before, metricsAfter.apiServerWrites());
      Map<Long, Double> cpuAfter = cpu.now();
      sampler.finish();
      Map<String, Double> trailing = cluster.settle(options.settleSeconds(), writes, before);
      Map<String, Double> peaks = new TreeMap<>();
      peaks.put("kube-scheduler Go heap in use", sampler.peak(NAME) / (1 << 20));
      peaks.put("kube-scheduler RSS (VmHWM)", ProcStat.peakRssMiB(scheduler.pid()));
      run =
          new PhaseRun(
              NAME,
              pods,
              seconds(start, end),
              seconds(start, created),
              writes,
              pods,
              trailing,
              cpu.spent(cpuBefore, cpuAfter),
              List.of(),
              List.of(),
              peaks,
              Map.of(),
              PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress(
          "[kube-scheduler %d/%d] %d pods bound in %.2f s = %.0f pods/s (creates took %.2f s); %.2f writes/pod"
              + " besides the creates: %s; %s",
          repeat,
          options.repeats(),
          pods,
          run.seconds(),
          run.podsPerSecond(),
          run.createSeconds(),
          run.serviceWritesPerPod(),
          Descriptions.writes(writes),
          Descriptions.cpu(run));
      progress(
          "[kube-scheduler %d/%d] %s",
          repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
    }
    cluster.deletePods(namespace, Manifests.plainPodNames(pods));
    return run;
  }
}
