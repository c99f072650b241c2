package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Arranger placing TYJobs of a leader and {@value Manifests#WORKERS_PER_JOB} workers, both services
 * up, until every pod exists with its node. Measures pods/s, the API server's writes and requests
 * per pod, TYJob writes and Events per job (until done and in the settle seconds after), the
 * scheduler's cycles (from its timers, scraped every {@code --sample-ms}), both services' heap
 * peaks and everyone's CPU seconds.
 */
final class ArrangerPhase implements Phase {

  /** A run's jobs at 5,000 nodes: the warm-up of the standard sizes stays within a minute. */
  static final int MOST_WARMUP_JOBS = 1250;

  static final String NAME = "arranger";
  private static final String E2E_TIMER = "arranger_scheduler_e2e_scheduling_duration_seconds";
  private static final String CORE_TIMER = "arranger_scheduler_cycle_duration_seconds";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;
  private final ArrangerServices services;

  ArrangerPhase(BenchCluster cluster, BenchmarkOptions options, ArrangerServices services) {
    this.cluster = cluster;
    this.options = options;
    this.services = services;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Warms both services' JVMs with as many jobs as one run (at most {@value #MOST_WARMUP_JOBS}),
   * once, before any run of pods-only or Arranger: a service in production is not cold. After a
   * quarter of a run (62 jobs at 100 nodes) three runs placed 145, 177 and 283 pods/s, each faster
   * than the one before; after a whole run's, 177, 160 and 194 — at that size the runs spread with
   * the machine more than with the warm-up, but none is measured on a JVM that has placed fewer
   * jobs than it is timed on.
   */
  void warmUp() {
    RawApi api = cluster.api();
    int warmupJobs = Math.max(1, Math.min(MOST_WARMUP_JOBS, options.pods() / 8));
    String warmupNamespace = cluster.createNamespace("bench-warmup-arranger");
    try (BenchKubelet kubelet = BenchKubelet.leaders(cluster.controlPlane().adminClient());
        BindingWatch watch = new BindingWatch(api, warmupNamespace, kubelet::onBound)) {
      api.postAll(
          warmupJobs,
          i -> Manifests.tyJobsPath(warmupNamespace),
          i -> Manifests.tyJob(warmupNamespace, i));
      watch.awaitBound(warmupJobs * 8L, Duration.ofSeconds(180), () -> {});
      deleteJobsAndPods(warmupNamespace, warmupJobs, watch);
    }
    progress(
        "[arranger] up (scheduler pid %d, log %s; controller pid %d, log %s); warm-up of %d jobs placed",
        services.scheduler().pid(),
        services.scheduler().log(),
        services.controller().pid(),
        services.controller().log(),
        warmupJobs);
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    RawApi api = cluster.api();
    int jobs = options.pods() / 8;
    int pods = jobs * 8;
    progress(
        "[arranger %d/%d] creating %d TYJobs of a leader and %d workers (%d pods)",
        repeat, options.repeats(), jobs, Manifests.WORKERS_PER_JOB, pods);
    CpuSeconds cpu = new CpuSeconds(cluster.controlPlane(), services.pids());
    PhaseRun run;
    try (BenchKubelet kubelet = BenchKubelet.leaders(cluster.controlPlane().adminClient());
        BindingWatch watch = new BindingWatch(api, namespace, kubelet::onBound);
        Sampler sampler =
            new Sampler(
                List.of(
                    new Sampler.Target(
                        "scheduler",
                        () -> body(services.scheduler().get("/actuator/prometheus")),
                        "jvm_memory_used_bytes",
                        Map.of("area", "heap"),
                        List.of(E2E_TIMER, CORE_TIMER)),
                    new Sampler.Target(
                        "controller",
                        () -> body(services.controller().get("/actuator/prometheus")),
                        "jvm_memory_used_bytes",
                        Map.of("area", "heap"),
                        List.of())),
                Duration.ofMillis(options.sampleMillis()))) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<String, Double> before = metricsBefore.apiServerWrites();
      PromText schedulerBefore = sampler.lastText("scheduler");
      PromText controllerBefore = sampler.lastText("controller");
      Map<Long, Double> cpuBefore = cpu.now();
      ApiServerCpuProfile profile =
          ApiServerCpuProfile.start(
              api, cluster.workDir(), "arranger-" + repeat, options.apiServerProfileSeconds());
      long start = System.nanoTime();
      api.postAll(jobs, i -> Manifests.tyJobsPath(namespace), i -> Manifests.tyJob(namespace, i));
      long created = System.nanoTime();
      long end =
          watch.awaitBound(
              pods,
              options.timeout(),
              () ->
                  progress(
                      "  %d / %d pods exist with a node" + " (%d leaders reported running)",
                      watch.bound(), pods, kubelet.started()));
      int leadersRun = kubelet.started();
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes = PromText.diff(before, metricsAfter.apiServerWrites());
      Map<Long, Double> cpuAfter = cpu.now();
      sampler.finish();
      Map<String, Double> trailing = cluster.settle(options.settleSeconds(), writes, before);
      Map<String, Double> peaks = new TreeMap<>();
      peaks.put("scheduler heap", sampler.peak("scheduler") / (1 << 20));
      peaks.put("controller heap", sampler.peak("controller") / (1 << 20));
      Map<String, Double> quantiles = new TreeMap<>();
      PromText last = sampler.lastText("scheduler");
      if (last != null) {
        quantiles.put("p50", last.histogramQuantile(E2E_TIMER, 0.5));
        quantiles.put("p99", last.histogramQuantile(E2E_TIMER, 0.99));
        quantiles.put("max", last.sum(E2E_TIMER + "_max"));
      }
      // The benchmark's own writes: the TYJob creates and one pods/status PATCH per leader (the
      // kubelet's part).
      run =
          new PhaseRun(
              NAME,
              pods,
              seconds(start, end),
              seconds(start, created),
              writes,
              jobs + leadersRun,
              trailing,
              cpu.spent(cpuBefore, cpuAfter),
              sampler.observations("scheduler", E2E_TIMER),
              sampler.observations("scheduler", CORE_TIMER),
              peaks,
              quantiles,
              PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress(
          "[arranger %d/%d] %d pods exist with a node %.2f s after the first TYJob create = %.0f pods/s"
              + " (creates took %.2f s); %.2f writes/pod besides the benchmark's (TYJob creates, leaders' pods/status): %s; %d cycles in the phase"
              + " (p50 %.0f ms, max %.0f ms; core p50 %.0f ms); %s; heap peaks %s",
          repeat,
          options.repeats(),
          pods,
          run.seconds(),
          run.podsPerSecond(),
          run.createSeconds(),
          run.serviceWritesPerPod(),
          Descriptions.writes(writes),
          run.cycleSeconds().size(),
          1000 * Report.quantile(run.cycleSeconds(), 0.5),
          1000 * Report.quantile(run.cycleSeconds(), 1.0),
          1000 * Report.quantile(run.coreSeconds(), 0.5),
          Descriptions.cpu(run),
          Descriptions.mebibytes(peaks));
      progress(
          "[arranger %d/%d] %s",
          repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      progress(
          "[arranger %d/%d] %s",
          repeat,
          options.repeats(),
          serviceCounters(schedulerBefore, last, controllerBefore, sampler.lastText("controller")));
      if (!trailing.isEmpty()) {
        progress(
            "[arranger %d/%d] writes in the %d s after the finish line: %s",
            repeat, options.repeats(), options.settleSeconds(), Descriptions.writes(trailing));
      }
      profile.await();
      deleteJobsAndPods(namespace, jobs, watch);
    }
    return run;
  }

  /**
   * The services' own counters over the phase: status writes, reconciles, GC pauses, pods created.
   */
  private static String serviceCounters(
      PromText schedulerBefore,
      PromText schedulerAfter,
      PromText controllerBefore,
      PromText controllerAfter) {
    if (schedulerBefore == null
        || schedulerAfter == null
        || controllerBefore == null
        || controllerAfter == null) {
      return "(service metrics unavailable)";
    }
    return "scheduler: status writes "
        + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_status_writes_total", 0)
        + ", cycles "
        + delta(
            schedulerBefore,
            schedulerAfter,
            "arranger_scheduler_e2e_scheduling_duration_seconds_count",
            0)
        + " taking "
        + delta(
            schedulerBefore,
            schedulerAfter,
            "arranger_scheduler_e2e_scheduling_duration_seconds_sum",
            1)
        + " s (core "
        + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_cycle_duration_seconds_sum", 1)
        + " s), GC pauses "
        + delta(schedulerBefore, schedulerAfter, "jvm_gc_pause_seconds_sum", 2)
        + " s"
        + "; controller: reconciles "
        + delta(
            controllerBefore,
            controllerAfter,
            "arranger_controller_reconcile_duration_seconds_count",
            0)
        + " taking "
        + delta(
            controllerBefore,
            controllerAfter,
            "arranger_controller_reconcile_duration_seconds_sum",
            1)
        + " s, pods created "
        + delta(controllerBefore, controllerAfter, "arranger_controller_pod_creations_total", 0)
        + ", GC pauses "
        + delta(controllerBefore, controllerAfter, "jvm_gc_pause_seconds_sum", 2)
        + " s";
  }

  private static String delta(PromText before, PromText after, String metric, int decimals) {
    return Report.num(after.sum(metric) - before.sum(metric), decimals);
  }

  /** A scrape's body; null when the service did not answer 200 (the sampler skips it). */
  private static String body(HttpResponse<String> response) {
    return response == null || response.statusCode() != 200 ? null : response.body();
  }

  /** Deletes TYJobs 0 to jobs - 1 of the namespace, then every pod the watch saw. */
  void deleteJobsAndPods(String namespace, int jobs, BindingWatch watch) {
    RawApi api = cluster.api();
    long start = System.nanoTime();
    api.runAll(
        jobs,
        i ->
            api.delete(
                Manifests.tyJobsPath(namespace) + "/" + Manifests.tyJobName(i),
                BenchCluster.GRACE_ZERO,
                404));
    cluster.awaitEmpty(Manifests.tyJobsPath(namespace));
    List<String> names = new ArrayList<>(watch.seenNames());
    cluster.deletePods(namespace, names);
    progress(
        "  cleaned up %s: %d TYJobs and %d pods in %.1f s",
        namespace, jobs, names.size(), seconds(start, System.nanoTime()));
  }
}
