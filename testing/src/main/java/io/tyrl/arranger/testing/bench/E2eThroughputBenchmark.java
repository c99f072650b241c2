package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.ControlPlaneBinaries;
import io.tyrl.arranger.testing.CustomResourceDefinitions;
import io.tyrl.arranger.testing.ServiceProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * End-to-end scheduling throughput on one real kube-apiserver: the API server's raw create
 * ceiling (pods with {@code spec.nodeName} preset), kube-scheduler 1.20.2 binding plain pods, and
 * Arranger (both services from their jars) placing TYJobs of a leader and 7 workers. Prints a
 * table and, last, {@code e2e nodes=<N> pods=<M> arranger=<pods/s> kube-scheduler=<pods/s>
 * ceiling=<pods/s>}. A benchmark, not a test: run it with {@code scripts/bench-e2e.sh}.
 */
public final class E2eThroughputBenchmark {

  static final String CEILING = "ceiling";
  static final String KUBE_SCHEDULER = "kube-scheduler";
  static final String ARRANGER = "arranger";
  /** Arranger's services up and watching, the benchmark creating Arranger-shaped pods with their nodes preset. */
  static final String PODS_ONLY = "pods-only";

  private final BenchmarkOptions options;
  private final ControlPlane controlPlane;
  private final RawApi api;
  private final Path workDir;
  private final BenchCluster cluster;

  private E2eThroughputBenchmark(BenchmarkOptions options, ControlPlane controlPlane, RawApi api, Path workDir) {
    this.options = options;
    this.controlPlane = controlPlane;
    this.api = api;
    this.workDir = workDir;
    this.cluster = new BenchCluster(controlPlane, api, workDir);
  }

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options = BenchmarkOptions.parse(args);
    Path workDir = options.workDir() != null ? options.workDir() : Files.createTempDirectory("arranger-bench-e2e-");
    Files.createDirectories(workDir);
    progress("work folder %s; %d nodes, %d pods, %d repeats, phases %s, %d client threads over %d connections",
        workDir, options.nodes(), options.pods(), options.repeats(), options.phases(), options.threads(),
        options.connections());
    ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
    progress("starting etcd + kube-apiserver");
    ControlPlane controlPlane = ControlPlane.start();
    List<AutoCloseable> toClose = new ArrayList<>();
    Thread stopper = new Thread(() -> {
      for (int i = toClose.size() - 1; i >= 0; i--) {
        try {
          toClose.get(i).close();
        } catch (Exception e) {
          System.err.println("could not stop " + toClose.get(i) + ": " + e.getMessage());
        }
      }
      controlPlane.close();
    }, "bench-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    RawApi api = new RawApi(controlPlane, options.threads(), options.connections());
    toClose.add(api);
    E2eThroughputBenchmark bench = new E2eThroughputBenchmark(options, controlPlane, api, workDir);
    int exit = 0;
    try {
      bench.run(binaries);
    } catch (RuntimeException e) {
      System.err.println("[bench-e2e] FAILED: " + e.getMessage());
      e.printStackTrace();
      exit = 1;
    }
    System.out.flush();
    System.exit(exit);
  }

  private void run(ControlPlaneBinaries binaries) throws Exception {
    ApiClient admin = controlPlane.adminClient();
    progress("kube-apiserver %s (pid %d), etcd pid %d; installing the CRDs and the default Queue", controlPlane.url(),
        controlPlane.apiServerPid(), controlPlane.etcdPid());
    CustomResourceDefinitions.install(admin);
    ArrangerResources.createQueueIfMissing(admin, TYJobDefaults.QUEUE);
    cluster.registerNodes(options.nodes(), options.connections());

    Map<String, List<PhaseRun>> runs = new LinkedHashMap<>();
    if (options.phases().contains(CEILING)) {
      for (int r = 1; r <= options.repeats(); r++) {
        runs.computeIfAbsent(CEILING, k -> new ArrayList<>()).add(ceiling(r));
      }
    }
    if (options.phases().contains(KUBE_SCHEDULER)) {
      runs.put(KUBE_SCHEDULER, kubeSchedulerRuns(binaries));
    }
    if (options.phases().contains(ARRANGER) || options.phases().contains(PODS_ONLY)) {
      arrangerRuns(runs);
    }
    printReport(runs);
  }

  // ---------------------------------------------------------------- setup

  // ---------------------------------------------------------------- phase 1: raw create ceiling

  private PhaseRun ceiling(int repeat) {
    String namespace = cluster.createNamespace("bench-ceiling-" + repeat);
    int pods = options.pods();
    progress("[ceiling %d/%d] creating %d pods with spec.nodeName preset", repeat, options.repeats(), pods);
    PromText metricsBefore = cluster.apiServerMetrics();
    Map<Long, Double> cpuBefore = new CpuSeconds(controlPlane, Map.of()).now();
    long start = System.nanoTime();
    api.postAll(pods, i -> "/api/v1/namespaces/" + namespace + "/pods", i -> Manifests.plainPod(i, cluster.nodeFor(i)));
    long end = System.nanoTime();
    Map<Long, Double> cpuAfter = new CpuSeconds(controlPlane, Map.of()).now();
    PromText metricsAfter = cluster.apiServerMetrics();
    Map<String, Double> writes = PromText.diff(metricsBefore.apiServerWrites(), metricsAfter.apiServerWrites());
    PhaseRun run = new PhaseRun(CEILING, pods, seconds(start, end), seconds(start, end), writes, pods, Map.of(),
        new CpuSeconds(controlPlane, Map.of()).spent(cpuBefore, cpuAfter), List.of(), List.of(), Map.of(), Map.of(),
        PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
    progress("[ceiling %d/%d] %d pods in %.2f s = %.0f pods/s; %s", repeat, options.repeats(), pods, run.seconds(),
        run.podsPerSecond(), Descriptions.cpu(run));
    cluster.deletePods(namespace, Manifests.plainPodNames(pods));
    return run;
  }

  // ---------------------------------------------------------------- phase 2: kube-scheduler

  private List<PhaseRun> kubeSchedulerRuns(ControlPlaneBinaries binaries) {
    List<PhaseRun> runs = new ArrayList<>();
    progress("[kube-scheduler] starting %s (qps/burst %d, leader election off)", binaries.kubeScheduler(), options.kubeSchedulerQps());
    try (KubeSchedulerProcess scheduler = KubeSchedulerProcess.start(binaries.kubeScheduler(), controlPlane, workDir,
        options.kubeSchedulerQps())) {
      scheduler.awaitHealthy(Duration.ofSeconds(60));
      int warmup = Math.min(200, options.pods());
      String warmupNamespace = cluster.createNamespace("bench-warmup-kube-scheduler");
      try (BindingWatch watch = new BindingWatch(api, warmupNamespace)) {
        api.postAll(warmup, i -> "/api/v1/namespaces/" + warmupNamespace + "/pods", i -> Manifests.plainPod(i, null));
        watch.awaitBound(warmup, Duration.ofSeconds(120), () -> {});
      }
      progress("[kube-scheduler] up (pid %d, log %s); warm-up of %d pods bound", scheduler.pid(), scheduler.log(), warmup);
      cluster.deletePods(warmupNamespace, Manifests.plainPodNames(warmup));
      for (int r = 1; r <= options.repeats(); r++) {
        runs.add(kubeSchedulerRun(r, scheduler));
      }
      progress("[kube-scheduler] stopping it (peak RSS %.0f MiB)", ProcStat.peakRssMiB(scheduler.pid()));
    }
    return runs;
  }

  private PhaseRun kubeSchedulerRun(int repeat, KubeSchedulerProcess scheduler) {
    String namespace = cluster.createNamespace("bench-kube-scheduler-" + repeat);
    int pods = options.pods();
    progress("[kube-scheduler %d/%d] creating %d pods without a node", repeat, options.repeats(), pods);
    PhaseRun run;
    try (BindingWatch watch = new BindingWatch(api, namespace);
        Sampler sampler = new Sampler(List.of(new Sampler.Target(KUBE_SCHEDULER, () -> scheduler.get("/metrics"),
            "go_memstats_heap_inuse_bytes", Map.of(), List.of())), Duration.ofSeconds(1))) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<String, Double> before = metricsBefore.apiServerWrites();
      Map<Long, Double> cpuBefore = new CpuSeconds(controlPlane, Map.of(KUBE_SCHEDULER, scheduler.pid())).now();
      long start = System.nanoTime();
      api.postAll(pods, i -> "/api/v1/namespaces/" + namespace + "/pods", i -> Manifests.plainPod(i, null));
      long created = System.nanoTime();
      long end = watch.awaitBound(pods, options.timeout(), () -> progress("  %d / %d pods bound", watch.bound(), pods));
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes = PromText.diff(before, metricsAfter.apiServerWrites());
      Map<Long, Double> cpuAfter = new CpuSeconds(controlPlane, Map.of(KUBE_SCHEDULER, scheduler.pid())).now();
      sampler.finish();
      Map<String, Double> trailing = cluster.settle(options.settleSeconds(), writes, before);
      Map<String, Double> peaks = new TreeMap<>();
      peaks.put("kube-scheduler Go heap in use", sampler.peak(KUBE_SCHEDULER) / (1 << 20));
      peaks.put("kube-scheduler RSS (VmHWM)", ProcStat.peakRssMiB(scheduler.pid()));
      run = new PhaseRun(KUBE_SCHEDULER, pods, seconds(start, end), seconds(start, created), writes, pods, trailing,
          new CpuSeconds(controlPlane, Map.of(KUBE_SCHEDULER, scheduler.pid())).spent(cpuBefore, cpuAfter), List.of(), List.of(), peaks,
          Map.of(), PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress("[kube-scheduler %d/%d] %d pods bound in %.2f s = %.0f pods/s (creates took %.2f s); %.2f writes/pod"
          + " besides the creates: %s; %s", repeat, options.repeats(), pods, run.seconds(), run.podsPerSecond(),
          run.createSeconds(), run.serviceWritesPerPod(), Descriptions.writes(writes), Descriptions.cpu(run));
      progress("[kube-scheduler %d/%d] %s", repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
    }
    cluster.deletePods(namespace, Manifests.plainPodNames(pods));
    return run;
  }

  // ---------------------------------------------------------------- phase 3: Arranger

  private void arrangerRuns(Map<String, List<PhaseRun>> runsByPhase) {
    Path root = options.projectRoot();
    Path kubeconfig = controlPlane.writeKubeconfig(workDir.resolve("arranger.kubeconfig"), ControlPlane.ADMIN);
    List<String> jvm = new ArrayList<>(List.of("-Xmx" + options.serviceHeap()));
    // e.g. -XX:StartFlightRecording=filename=/tmp/x.jfr,settings=profile to see where the time goes
    jvm.addAll(options.serviceJvmOptions());
    Map<String, String> common = Map.of("arranger.kubernetes.kubeconfig", kubeconfig.toString());
    Map<String, String> schedulerProperties = new LinkedHashMap<>(common);
    schedulerProperties.putAll(options.schedulerProperties());
    Map<String, String> controllerProperties = new LinkedHashMap<>(common);
    controllerProperties.putAll(options.controllerProperties());
    progress("[arranger] starting scheduler-service (%s) and controller-service (%s), %s heap each",
        schedulerProperties, controllerProperties, options.serviceHeap());
    try (ServiceProcess scheduler = ServiceProcess.start("scheduler", options.jar(root, "scheduler-service"), workDir,
            schedulerProperties, jvm);
        ServiceProcess controller = ServiceProcess.start("controller", options.jar(root, "controller-service"), workDir,
            controllerProperties, jvm)) {
      scheduler.awaitReady(Duration.ofSeconds(180));
      controller.awaitReady(Duration.ofSeconds(180));
      // The JVMs are warmed with a quarter of the jobs (at most 256): a service in production is not cold.
      int warmupJobs = Math.max(1, Math.min(256, options.pods() / 8 / 4));
      String warmupNamespace = cluster.createNamespace("bench-warmup-arranger");
      try (LeaderKubelet kubelet = new LeaderKubelet(controlPlane.adminClient());
          BindingWatch watch = new BindingWatch(api, warmupNamespace, kubelet::onBound)) {
        api.postAll(warmupJobs, i -> Manifests.tyJobsPath(warmupNamespace), i -> Manifests.tyJob(warmupNamespace, i));
        watch.awaitBound(warmupJobs * 8L, Duration.ofSeconds(180), () -> {});
        deleteJobsAndPods(warmupNamespace, warmupJobs, watch);
      }
      progress("[arranger] up (scheduler pid %d, log %s; controller pid %d, log %s); warm-up of %d jobs placed",
          scheduler.pid(), scheduler.log(), controller.pid(), controller.log(), warmupJobs);
      if (options.phases().contains(PODS_ONLY)) {
        List<PhaseRun> runs = runsByPhase.computeIfAbsent(PODS_ONLY, k -> new ArrayList<>());
        for (int r = 1; r <= options.repeats(); r++) {
          runs.add(podsOnlyRun(r, scheduler, controller));
        }
      }
      if (options.phases().contains(ARRANGER)) {
        List<PhaseRun> runs = runsByPhase.computeIfAbsent(ARRANGER, k -> new ArrayList<>());
        for (int r = 1; r <= options.repeats(); r++) {
          runs.add(arrangerRun(r, scheduler, controller));
        }
      }
      progress("[arranger] stopping the services (peak RSS: scheduler %.0f MiB, controller %.0f MiB)",
          ProcStat.peakRssMiB(scheduler.pid()), ProcStat.peakRssMiB(controller.pid()));
    }
  }

  /**
   * What the pods of Arranger's jobs cost with nothing decided: the same number of pods as a run,
   * shaped as the controller makes them (its labels, an owner reference, its environment) and
   * created by the benchmark with their nodes preset, while both services run and watch them. No
   * TYJob exists, so nothing is scheduled, reconciled or written by the services. An upper bound on
   * what any placement by these two services can reach on this machine: each pod of a run costs at
   * least this, and the run adds its TYJobs, decisions and status writes.
   */
  private PhaseRun podsOnlyRun(int repeat, ServiceProcess scheduler, ServiceProcess controller) {
    String namespace = cluster.createNamespace("bench-pods-only-" + repeat);
    int jobs = options.pods() / 8;
    int pods = jobs * 8;
    progress("[pods-only %d/%d] creating %d pods shaped as Arranger's, nodes preset, both services watching", repeat,
        options.repeats(), pods);
    Map<String, Long> pids = Map.of("scheduler", scheduler.pid(), "controller", controller.pid());
    PhaseRun run;
    try (BindingWatch watch = new BindingWatch(api, namespace)) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<Long, Double> cpuBefore = new CpuSeconds(controlPlane, pids).now();
      long start = System.nanoTime();
      api.postAll(pods, i -> "/api/v1/namespaces/" + namespace + "/pods",
          i -> Manifests.arrangerShapedPod(namespace, i, cluster.nodeFor(i)));
      long created = System.nanoTime();
      long end = watch.awaitBound(pods, options.timeout(), () -> progress("  %d / %d pods seen", watch.bound(), pods));
      Map<Long, Double> cpuAfter = new CpuSeconds(controlPlane, pids).now();
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes = PromText.diff(metricsBefore.apiServerWrites(), metricsAfter.apiServerWrites());
      run = new PhaseRun(PODS_ONLY, pods, seconds(start, end), seconds(start, created), writes, pods, Map.of(),
          new CpuSeconds(controlPlane, pids).spent(cpuBefore, cpuAfter), List.of(), List.of(), Map.of(), Map.of(),
          PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress("[pods-only %d/%d] %d pods exist and were seen %.2f s after the first create = %.0f pods/s; writes: %s; %s",
          repeat, options.repeats(), pods, run.seconds(), run.podsPerSecond(), Descriptions.writes(writes), Descriptions.cpu(run));
      progress("[pods-only %d/%d] %s", repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      cluster.deletePods(namespace, new ArrayList<>(watch.seenNames()));
    }
    return run;
  }

  private PhaseRun arrangerRun(int repeat, ServiceProcess scheduler, ServiceProcess controller) {
    String namespace = cluster.createNamespace("bench-arranger-" + repeat);
    int jobs = options.pods() / 8;
    int pods = jobs * 8;
    progress("[arranger %d/%d] creating %d TYJobs of a leader and %d workers (%d pods)", repeat, options.repeats(), jobs,
        Manifests.WORKERS_PER_JOB, pods);
    String e2e = "arranger_scheduler_e2e_scheduling_duration_seconds";
    String core = "arranger_scheduler_cycle_duration_seconds";
    Map<String, Long> pids = Map.of("scheduler", scheduler.pid(), "controller", controller.pid());
    PhaseRun run;
    try (LeaderKubelet kubelet = new LeaderKubelet(controlPlane.adminClient());
        BindingWatch watch = new BindingWatch(api, namespace, kubelet::onBound);
        Sampler sampler = new Sampler(List.of(
            new Sampler.Target("scheduler", () -> body(scheduler.get("/actuator/prometheus")), "jvm_memory_used_bytes",
                Map.of("area", "heap"), List.of(e2e, core)),
            new Sampler.Target("controller", () -> body(controller.get("/actuator/prometheus")), "jvm_memory_used_bytes",
                Map.of("area", "heap"), List.of())), Duration.ofMillis(options.sampleMillis()))) {
      PromText metricsBefore = cluster.apiServerMetrics();
      Map<String, Double> before = metricsBefore.apiServerWrites();
      PromText schedulerBefore = sampler.lastText("scheduler");
      PromText controllerBefore = sampler.lastText("controller");
      Map<Long, Double> cpuBefore = new CpuSeconds(controlPlane, pids).now();
      ApiServerCpuProfile profile = ApiServerCpuProfile.start(api, workDir, "arranger-" + repeat,
          options.apiServerProfileSeconds());
      long start = System.nanoTime();
      api.postAll(jobs, i -> Manifests.tyJobsPath(namespace), i -> Manifests.tyJob(namespace, i));
      long created = System.nanoTime();
      long end = watch.awaitBound(pods, options.timeout(), () -> progress("  %d / %d pods exist with a node"
          + " (%d leaders reported running)", watch.bound(), pods, kubelet.started()));
      int leadersRun = kubelet.started();
      PromText metricsAfter = cluster.apiServerMetrics();
      Map<String, Double> writes = PromText.diff(before, metricsAfter.apiServerWrites());
      Map<Long, Double> cpuAfter = new CpuSeconds(controlPlane, pids).now();
      sampler.finish();
      Map<String, Double> trailing = cluster.settle(options.settleSeconds(), writes, before);
      Map<String, Double> peaks = new TreeMap<>();
      peaks.put("scheduler heap", sampler.peak("scheduler") / (1 << 20));
      peaks.put("controller heap", sampler.peak("controller") / (1 << 20));
      Map<String, Double> quantiles = new TreeMap<>();
      PromText last = sampler.lastText("scheduler");
      if (last != null) {
        quantiles.put("p50", last.histogramQuantile(e2e, 0.5));
        quantiles.put("p99", last.histogramQuantile(e2e, 0.99));
        quantiles.put("max", last.sum(e2e + "_max"));
      }
      // The benchmark's own writes: the TYJob creates and one pods/status PATCH per leader (the kubelet's part).
      run = new PhaseRun(ARRANGER, pods, seconds(start, end), seconds(start, created), writes, jobs + leadersRun, trailing,
          new CpuSeconds(controlPlane, pids).spent(cpuBefore, cpuAfter), sampler.observations("scheduler", e2e),
          sampler.observations("scheduler", core), peaks, quantiles,
          PromText.diff(metricsBefore.apiServerCalls(), metricsAfter.apiServerCalls()));
      progress("[arranger %d/%d] %d pods exist with a node %.2f s after the first TYJob create = %.0f pods/s"
          + " (creates took %.2f s); %.2f writes/pod besides the benchmark's (TYJob creates, leaders' pods/status): %s; %d cycles in the phase"
          + " (p50 %.0f ms, max %.0f ms; core p50 %.0f ms); %s; heap peaks %s", repeat, options.repeats(), pods,
          run.seconds(), run.podsPerSecond(), run.createSeconds(), run.serviceWritesPerPod(), Descriptions.writes(writes),
          run.cycleSeconds().size(), 1000 * Report.quantile(run.cycleSeconds(), 0.5),
          1000 * Report.quantile(run.cycleSeconds(), 1.0), 1000 * Report.quantile(run.coreSeconds(), 0.5),
          Descriptions.cpu(run), Descriptions.mebibytes(peaks));
      progress("[arranger %d/%d] %s", repeat, options.repeats(), Descriptions.apiServerTime(metricsBefore, metricsAfter));
      progress("[arranger %d/%d] %s", repeat, options.repeats(), serviceProfile(schedulerBefore, last,
          controllerBefore, sampler.lastText("controller")));
      if (!trailing.isEmpty()) {
        progress("[arranger %d/%d] writes in the %d s after the finish line: %s", repeat, options.repeats(),
            options.settleSeconds(), Descriptions.writes(trailing));
      }
      profile.await();
      deleteJobsAndPods(namespace, jobs, watch);
    }
    return run;
  }

  /** The services' own counters over the phase: status writes, reconciles, GC pauses, pods created. */
  private static String serviceProfile(PromText schedulerBefore, PromText schedulerAfter, PromText controllerBefore,
      PromText controllerAfter) {
    if (schedulerBefore == null || schedulerAfter == null || controllerBefore == null || controllerAfter == null) {
      return "(service metrics unavailable)";
    }
    return "scheduler: status writes " + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_status_writes_total", 0)
        + ", cycles " + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_e2e_scheduling_duration_seconds_count", 0)
        + " taking " + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_e2e_scheduling_duration_seconds_sum", 1)
        + " s (core " + delta(schedulerBefore, schedulerAfter, "arranger_scheduler_cycle_duration_seconds_sum", 1)
        + " s), GC pauses " + delta(schedulerBefore, schedulerAfter, "jvm_gc_pause_seconds_sum", 2) + " s"
        + "; controller: reconciles " + delta(controllerBefore, controllerAfter, "arranger_controller_reconcile_duration_seconds_count", 0)
        + " taking " + delta(controllerBefore, controllerAfter, "arranger_controller_reconcile_duration_seconds_sum", 1)
        + " s, pods created " + delta(controllerBefore, controllerAfter, "arranger_controller_pod_creations_total", 0)
        + ", GC pauses " + delta(controllerBefore, controllerAfter, "jvm_gc_pause_seconds_sum", 2) + " s";
  }

  private static String delta(PromText before, PromText after, String metric, int decimals) {
    return Report.num(after.sum(metric) - before.sum(metric), decimals);
  }

  private static String body(HttpResponse<String> response) {
    return response == null || response.statusCode() != 200 ? null : response.body();
  }

  private void deleteJobsAndPods(String namespace, int jobs, BindingWatch watch) {
    long start = System.nanoTime();
    api.runAll(jobs, i -> api.delete(Manifests.tyJobsPath(namespace) + "/" + Manifests.tyJobName(i), BenchCluster.GRACE_ZERO, 404));
    cluster.awaitEmpty(Manifests.tyJobsPath(namespace));
    List<String> names = new ArrayList<>(watch.seenNames());
    cluster.deletePods(namespace, names);
    progress("  cleaned up %s: %d TYJobs and %d pods in %.1f s", namespace, jobs, names.size(),
        seconds(start, System.nanoTime()));
  }

  // ---------------------------------------------------------------- report

  private void printReport(Map<String, List<PhaseRun>> runs) {
    List<PhaseRun> ceiling = runs.getOrDefault(CEILING, List.of());
    List<PhaseRun> kube = runs.getOrDefault(KUBE_SCHEDULER, List.of());
    List<PhaseRun> arranger = runs.getOrDefault(ARRANGER, List.of());
    List<PhaseRun> podsOnly = runs.getOrDefault(PODS_ONLY, List.of());
    double ceilingRate = medianOf(ceiling, PhaseRun::podsPerSecond);
    double kubeRate = medianOf(kube, PhaseRun::podsPerSecond);
    double arrangerRate = medianOf(arranger, PhaseRun::podsPerSecond);

    Report table = new Report("e2e, " + options.nodes() + " nodes, " + options.pods() + " pods, median of "
        + options.repeats(), CEILING, KUBE_SCHEDULER, ARRANGER);
    table.row("pods/s", Report.num(ceilingRate, 0), Report.num(kubeRate, 0), Report.num(arrangerRate, 0));
    table.row("pods/s of each run", Report.runs(rates(ceiling), 0), Report.runs(rates(kube), 0),
        Report.runs(rates(arranger), 0));
    table.row("s to the last pod with a node", num(ceiling, PhaseRun::seconds, 2), num(kube, PhaseRun::seconds, 2),
        num(arranger, PhaseRun::seconds, 2));
    table.row("s of the benchmark's creates", num(ceiling, PhaseRun::createSeconds, 2), num(kube, PhaseRun::createSeconds, 2),
        num(arranger, PhaseRun::createSeconds, 2));
    table.row("pods only, services watching: pods/s (each run)", "", "", num(podsOnly, PhaseRun::podsPerSecond, 0)
        + " (" + Report.runs(rates(podsOnly), 0) + ")");
    table.row("pods only: CPU s kube-apiserver + etcd / scheduler / controller / benchmark / machine", "", "",
        num(podsOnly, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1) + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("scheduler"), 1) + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("controller"), 1) + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("benchmark"), 1) + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("machine"), 1));
    table.row("÷ ceiling", Report.num(Report.ratio(ceilingRate, ceilingRate), 2), Report.num(Report.ratio(kubeRate,
        ceilingRate), 2), Report.num(Report.ratio(arrangerRate, ceilingRate), 2));
    table.row("arranger ÷ kube-scheduler", "", "", Report.num(Report.ratio(arrangerRate, kubeRate), 2) + "×");
    table.row("API writes/pod (all, until done)", num(ceiling, r -> r.totalWrites() / r.pods(), 2),
        num(kube, r -> r.totalWrites() / r.pods(), 2), num(arranger, r -> r.totalWrites() / r.pods(), 2));
    table.row("API writes/pod by the scheduler(s)", "0 (nodeName preset)", num(kube, PhaseRun::serviceWritesPerPod, 2),
        num(arranger, PhaseRun::serviceWritesPerPod, 2));
    table.row("API requests/pod (all but watches, until done)", num(ceiling, PhaseRun::requestsPerPod, 2),
        num(kube, PhaseRun::requestsPerPod, 2), num(arranger, PhaseRun::requestsPerPod, 2));
    table.row("TYJob writes/job until done / in the " + options.settleSeconds() + " s after", "", "",
        num(arranger, r -> r.tyJobWritesPerJob(false), 2) + " / " + num(arranger, r -> r.tyJobWritesPerJob(true), 2));
    table.row("Events/job until done / in the " + options.settleSeconds() + " s after", "",
        num(kube, r -> r.eventsPerJob(false), 2) + " (8 pods)",
        num(arranger, r -> r.eventsPerJob(false), 2) + " / " + num(arranger, r -> r.eventsPerJob(true), 2));
    table.row("scheduler cycle p50 / p99 ms (in phase)", "", "",
        Report.num(1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.5)), 0) + " / "
            + Report.num(1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.99)), 0));
    table.row("scheduler cycle p50 / p99 ms (/actuator)", "", "",
        Report.num(1000 * medianOf(arranger, r -> r.serviceQuantiles().getOrDefault("p50", Double.NaN)), 0) + " / "
            + Report.num(1000 * medianOf(arranger, r -> r.serviceQuantiles().getOrDefault("p99", Double.NaN)), 0));
    table.row("core part of the cycle p50 ms", "", "",
        Report.num(1000 * medianOf(arranger, r -> Report.quantile(r.coreSeconds(), 0.5)), 0));
    table.row("cycles in the phase", "", "", num(arranger, r -> r.cycleSeconds().size(), 0));
    table.row("peak heap MiB", "", "Go heap in use " + num(kube, r -> r.peaksMiB().get("kube-scheduler Go heap in use"), 0)
            + ", RSS " + num(kube, r -> r.peaksMiB().get("kube-scheduler RSS (VmHWM)"), 0),
        "scheduler " + num(arranger, r -> r.peaksMiB().get("scheduler heap"), 0) + ", controller "
            + num(arranger, r -> r.peaksMiB().get("controller heap"), 0));
    table.row("CPU s: kube-apiserver + etcd", num(ceiling, r -> r.cpuSeconds().get("kube-apiserver")
        + r.cpuSeconds().get("etcd"), 1), num(kube, r -> r.cpuSeconds().get("kube-apiserver")
        + r.cpuSeconds().get("etcd"), 1), num(arranger, r -> r.cpuSeconds().get("kube-apiserver")
        + r.cpuSeconds().get("etcd"), 1));
    table.row("CPU s: scheduler(s) / controller", "", num(kube, r -> r.cpuSeconds().get(KUBE_SCHEDULER), 1),
        num(arranger, r -> r.cpuSeconds().get("scheduler"), 1) + " / " + num(arranger, r -> r.cpuSeconds().get("controller"), 1));
    table.row("CPU s: benchmark / machine", num(ceiling, r -> r.cpuSeconds().get("benchmark"), 1) + " / "
        + num(ceiling, r -> r.cpuSeconds().get("machine"), 1), num(kube, r -> r.cpuSeconds().get("benchmark"), 1) + " / "
        + num(kube, r -> r.cpuSeconds().get("machine"), 1), num(arranger, r -> r.cpuSeconds().get("benchmark"), 1)
        + " / " + num(arranger, r -> r.cpuSeconds().get("machine"), 1));

    System.out.println();
    System.out.print(table.render());
    System.out.println("peak heap: jvm_memory_used_bytes{area=\"heap\"} summed over pools, max of /actuator/prometheus"
        + " scrapes every " + options.sampleMillis() + " ms during each phase; kube-scheduler: go_memstats_heap_inuse_bytes"
        + " (scraped every 1 s) and VmHWM. Cycle p50/p99 (in phase): each cycle's duration from the change of the"
        + " e2e timer's _count/_sum between scrapes; (/actuator): estimated from the service's histogram buckets at the finish line.");
    for (PhaseRun run : kube.isEmpty() ? List.<PhaseRun>of() : List.of(kube.get(kube.size() - 1))) {
      System.out.println("kube-scheduler writes (last run): " + Descriptions.writes(run.writes()));
    }
    for (PhaseRun run : arranger.isEmpty() ? List.<PhaseRun>of() : List.of(arranger.get(arranger.size() - 1))) {
      System.out.println("arranger writes (last run): " + Descriptions.writes(run.writes()));
      if (!run.trailingWrites().isEmpty()) {
        System.out.println("arranger writes in the " + options.settleSeconds() + " s after the finish line (last run): "
            + Descriptions.writes(run.trailingWrites()));
      }
    }
    if (!podsOnly.isEmpty()) {
      System.out.println(Report.floorLine(options.nodes(), options.pods(), medianOf(podsOnly, PhaseRun::podsPerSecond),
          kubeRate, ceilingRate));
    }
    System.out.println(Report.summaryLine(options.nodes(), options.pods(), arrangerRate, kubeRate, ceilingRate,
        new Report.Cost(medianOf(arranger, PhaseRun::requestsPerPod), medianOf(arranger, r -> r.tyJobWritesPerJob(false)),
            medianOf(arranger, r -> r.eventsPerJob(false)),
            1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.99)))));
  }

  private static List<Double> rates(List<PhaseRun> runs) {
    return runs.stream().map(PhaseRun::podsPerSecond).toList();
  }

  private static double medianOf(List<PhaseRun> runs, java.util.function.ToDoubleFunction<PhaseRun> value) {
    return Report.median(runs.stream().map(value::applyAsDouble).toList());
  }

  private static String num(List<PhaseRun> runs, java.util.function.ToDoubleFunction<PhaseRun> value, int decimals) {
    return Report.num(medianOf(runs, value), decimals);
  }
}
