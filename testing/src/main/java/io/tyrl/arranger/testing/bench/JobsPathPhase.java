package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The path a user takes without Arranger: M/8 batch/v1 Jobs of parallelism and completions 8,
 * turned into pods by kube-controller-manager's Job controller and bound by kube-scheduler, from
 * the first create until every pod has its node — the same work, finish line and columns as the
 * Arranger phase, whose TYJobs the services turn into pods and place.
 */
final class JobsPathPhase implements Phase {

  static final String NAME = "jobs";

  /**
   * A Job deleted as the API's default (orphan) would wait for the garbage collector to take its
   * finalizer off; none runs here.
   */
  private static final String BACKGROUND =
      "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Background\"}";

  private final BenchCluster cluster;
  private final BenchmarkOptions options;
  private final ComponentProcess scheduler;
  private final ComponentProcess controllerManager;

  JobsPathPhase(
      BenchCluster cluster,
      BenchmarkOptions options,
      ComponentProcess scheduler,
      ComponentProcess controllerManager) {
    this.cluster = cluster;
    this.options = options;
    this.scheduler = scheduler;
    this.controllerManager = controllerManager;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Runs up to 25 Jobs before the runs, so they measure a warm Job controller as the other phases
   * measure warm schedulers and services.
   */
  void warmUp() {
    int jobs = Math.min(25, Math.max(1, options.pods() / 8));
    String namespace = cluster.createNamespace("bench-warmup-jobs");
    try (BindingWatch watch = new BindingWatch(cluster.api(), namespace)) {
      cluster
          .api()
          .postAll(jobs, i -> Manifests.batchJobsPath(namespace), i -> Manifests.batchJob(i));
      watch.awaitBound(jobs * 8L, Duration.ofSeconds(120), () -> {});
      progress(
          "[jobs] kube-controller-manager up (pid %d, log %s); warm-up of %d Jobs bound",
          controllerManager.pid(), controllerManager.log(), jobs);
      deleteJobsAndPods(namespace, watch);
    }
  }

  @Override
  public PhaseRun runOnce(String namespace, int repeat) {
    int jobs = options.pods() / 8;
    int pods = jobs * 8;
    progress(
        "[jobs %d/%d] creating %d batch/v1 Jobs of 8 pods for the Job controller and kube-scheduler",
        repeat, options.repeats(), jobs);
    CpuSeconds cpu =
        new CpuSeconds(
            cluster.controlPlane(),
            Map.of(
                KubeSchedulerPhase.NAME,
                scheduler.pid(),
                "kube-controller-manager",
                controllerManager.pid()));
    PhaseRun run;
    try (BindingWatch watch = new BindingWatch(cluster.api(), namespace)) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<Long, Double> cpuBefore = cpu.now();
      long start = System.nanoTime();
      cluster
          .api()
          .postAll(jobs, i -> Manifests.batchJobsPath(namespace), i -> Manifests.batchJob(i));
      long created = System.nanoTime();
      long end =
          watch.awaitBound(
              pods, options.timeout(), () -> progress("  %d / %d pods bound", watch.bound(), pods));
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
              jobs,
              Map.of(),
              cpu.spent(cpuBefore, cpuAfter),
              List.of(),
              List.of(),
              Map.of(),
              Map.of(),
              PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress(
          "[jobs %d/%d] %d pods of %d Jobs bound %.2f s after the first create = %.0f pods/s"
              + " (creates took %.2f s); writes: %s; %s",
          repeat,
          options.repeats(),
          pods,
          jobs,
          run.seconds(),
          run.podsPerSecond(),
          run.createSeconds(),
          Descriptions.writes(writes),
          Descriptions.cpu(run));
      progress(
          "[jobs %d/%d] %s",
          repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      deleteJobsAndPods(namespace, watch);
    }
    return run;
  }

  /**
   * The Jobs go first, so that their controller does not replace the pods deleted next; no garbage
   * collector runs here, so the benchmark deletes the pods itself.
   */
  private void deleteJobsAndPods(String namespace, BindingWatch watch) {
    cluster.api().delete(Manifests.batchJobsPath(namespace), BACKGROUND, 404);
    cluster.awaitEmpty(Manifests.batchJobsPath(namespace));
    cluster.deletePods(namespace, new ArrayList<>(watch.seenNames()));
  }
}
