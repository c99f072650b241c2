package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.ControlPlaneBinaries;
import io.tyrl.arranger.testing.CustomResourceDefinitions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * End-to-end scheduling throughput on one real kube-apiserver: the API server's raw create ceiling
 * (pods with {@code spec.nodeName} preset), kube-scheduler 1.20.2 binding plain pods, the jobs path
 * (batch/v1 Jobs through kube-controller-manager's Job controller and kube-scheduler), and Arranger
 * (both services from their jars) placing TYJobs of a leader and 7 workers. Prints a table and,
 * last, {@code e2e nodes=<N> pods=<M> arranger=<pods/s> jobs-path=<pods/s> ...}. A benchmark, not a
 * test: run it with {@code scripts/bench-e2e.sh}.
 *
 * <p>This class runs the phases: it starts the control plane and registers the nodes, starts and
 * stops the processes under test around their phases, repeats each phase (each run in a fresh
 * namespace) and prints the {@link Results}. Each {@link Phase} knows what one of its runs
 * measures.
 */
public final class E2eThroughputBenchmark {

  private final BenchmarkOptions options;
  private final BenchCluster cluster;

  private E2eThroughputBenchmark(BenchmarkOptions options, BenchCluster cluster) {
    this.options = options;
    this.cluster = cluster;
  }

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options = BenchmarkOptions.parse(args);
    Path workDir =
        options.workDir() != null
            ? options.workDir()
            : Files.createTempDirectory("arranger-bench-e2e-");
    Files.createDirectories(workDir);
    progress(
        "work folder %s; %d nodes, %d pods, %d repeats, phases %s, %d client threads over %d connections",
        workDir,
        options.nodes(),
        options.pods(),
        options.repeats(),
        options.phases(),
        options.threads(),
        options.connections());
    ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
    progress("starting etcd + kube-apiserver");
    ControlPlane controlPlane = ControlPlane.start();
    List<AutoCloseable> toClose = new ArrayList<>();
    Thread stopper =
        new Thread(
            () -> {
              for (int i = toClose.size() - 1; i >= 0; i--) {
                try {
                  toClose.get(i).close();
                } catch (Exception e) {
                  System.err.println("could not stop " + toClose.get(i) + ": " + e.getMessage());
                }
              }
              controlPlane.close();
            },
            "bench-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    RawApi api = new RawApi(controlPlane, options.threads(), options.connections());
    toClose.add(api);
    E2eThroughputBenchmark bench =
        new E2eThroughputBenchmark(options, new BenchCluster(controlPlane, api, workDir));
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
    ControlPlane controlPlane = cluster.controlPlane();
    ApiClient admin = controlPlane.adminClient();
    progress(
        "kube-apiserver %s (pid %d), etcd pid %d; installing the CRDs and the default Queue",
        controlPlane.url(), controlPlane.apiServerPid(), controlPlane.etcdPid());
    CustomResourceDefinitions.install(admin);
    ArrangerResources.createQueueIfMissing(admin, TYJobDefaults.QUEUE);
    cluster.registerNodes(options.nodes(), options.connections());

    Map<String, List<PhaseRun>> runs = new LinkedHashMap<>();
    if (options.phases().contains(CeilingPhase.NAME)) {
      runs.put(CeilingPhase.NAME, repeat(new CeilingPhase(cluster, options)));
    }
    boolean kubeSchedulerPhase = options.phases().contains(KubeSchedulerPhase.NAME);
    boolean jobsPhase = options.phases().contains(JobsPathPhase.NAME);
    if (kubeSchedulerPhase || jobsPhase) {
      progress(
          "[kube-scheduler] starting %s (qps/burst %d, leader election off)",
          binaries.kubeScheduler(), options.kubeSchedulerQps());
      try (ComponentProcess scheduler =
          ComponentProcess.kubeScheduler(
              binaries.kubeScheduler(),
              controlPlane,
              cluster.workDir(),
              options.kubeSchedulerQps())) {
        scheduler.awaitHealthy(Duration.ofSeconds(60));
        KubeSchedulerPhase phase = new KubeSchedulerPhase(cluster, options, scheduler);
        phase.warmUp();
        if (kubeSchedulerPhase) {
          runs.put(KubeSchedulerPhase.NAME, repeat(phase));
        }
        if (jobsPhase) {
          runs.put(JobsPathPhase.NAME, jobsPath(binaries, scheduler));
        }
        progress(
            "[kube-scheduler] stopping it (peak RSS %.0f MiB)",
            ProcStat.peakRssMiB(scheduler.pid()));
      }
    }
    if (options.phases().contains(PodsOnlyPhase.NAME)
        || options.phases().contains(ArrangerPhase.NAME)
        || options.phases().contains(BigJobPhase.NAME)) {
      // One start, warmed once, for both phases: pods-only then measures the same warm JVMs the
      // Arranger runs use.
      try (ArrangerServices services = ArrangerServices.start(cluster, options)) {
        ArrangerPhase arranger = new ArrangerPhase(cluster, options, services);
        arranger.warmUp();
        if (options.phases().contains(PodsOnlyPhase.NAME)) {
          runs.put(PodsOnlyPhase.NAME, repeat(new PodsOnlyPhase(cluster, options, services)));
        }
        if (options.phases().contains(ArrangerPhase.NAME)) {
          runs.put(ArrangerPhase.NAME, repeat(arranger));
        }
        if (options.phases().contains(BigJobPhase.NAME)) {
          BigJobPhase bigJob = new BigJobPhase(cluster, options, services, arranger);
          bigJob.warmUp();
          runs.put(BigJobPhase.NAME, repeat(bigJob));
        }
        progress(
            "[arranger] stopping the services (peak RSS: scheduler %.0f MiB, controller %.0f MiB)",
            ProcStat.peakRssMiB(services.scheduler().pid()),
            ProcStat.peakRssMiB(services.controller().pid()));
      }
    }
    new Results(options, runs).print();
  }

  /** The jobs path's runs, kube-controller-manager started for them beside kube-scheduler. */
  private List<PhaseRun> jobsPath(ControlPlaneBinaries binaries, ComponentProcess scheduler) {
    progress(
        "[jobs] starting %s (the Job controller only, qps/burst %d, leader election off)",
        binaries.kubeControllerManager(), options.kubeSchedulerQps());
    try (ComponentProcess controllerManager =
        ComponentProcess.kubeControllerManager(
            binaries.kubeControllerManager(),
            cluster.controlPlane(),
            cluster.workDir(),
            options.kubeSchedulerQps())) {
      controllerManager.awaitHealthy(Duration.ofSeconds(60));
      JobsPathPhase phase = new JobsPathPhase(cluster, options, scheduler, controllerManager);
      phase.warmUp();
      List<PhaseRun> runs = repeat(phase);
      progress(
          "[jobs] stopping kube-controller-manager (peak RSS %.0f MiB)",
          ProcStat.peakRssMiB(controllerManager.pid()));
      return runs;
    }
  }

  /**
   * The phase's runs, each in a namespace of its own so no run sees another's pods or their
   * deletion.
   */
  private List<PhaseRun> repeat(Phase phase) {
    List<PhaseRun> runs = new ArrayList<>();
    for (int r = 1; r <= options.repeats(); r++) {
      runs.add(phase.runOnce(cluster.createNamespace("bench-" + phase.name() + "-" + r), r));
    }
    return runs;
  }
}
