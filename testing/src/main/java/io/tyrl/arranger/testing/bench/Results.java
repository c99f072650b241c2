package io.tyrl.arranger.testing.bench;

import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What the benchmark prints once every phase ran: medians over each phase's runs, in a {@link
 * Report} table, and the lines scripts read ({@link Report#floorLine}, {@link Report#summaryLine}).
 *
 * @param runs each phase's runs by its name; a phase not run has none
 */
record Results(BenchmarkOptions options, Map<String, List<PhaseRun>> runs) {

  /**
   * Prints the table of medians, the notes under it, the last runs' writes, then the floor and e2e
   * lines.
   */
  void print() {
    List<PhaseRun> ceiling = runs.getOrDefault(CeilingPhase.NAME, List.of());
    List<PhaseRun> kube = runs.getOrDefault(KubeSchedulerPhase.NAME, List.of());
    List<PhaseRun> jobs = runs.getOrDefault(JobsPathPhase.NAME, List.of());
    List<PhaseRun> arranger = runs.getOrDefault(ArrangerPhase.NAME, List.of());
    List<PhaseRun> podsOnly = runs.getOrDefault(PodsOnlyPhase.NAME, List.of());
    double ceilingRate = medianOf(ceiling, PhaseRun::podsPerSecond);
    double kubeRate = medianOf(kube, PhaseRun::podsPerSecond);
    double jobsRate = medianOf(jobs, PhaseRun::podsPerSecond);
    double podsOnlyRate = medianOf(podsOnly, PhaseRun::podsPerSecond);
    double arrangerRate = medianOf(arranger, PhaseRun::podsPerSecond);

    Report table =
        new Report(
            "e2e, "
                + options.nodes()
                + " nodes, "
                + options.pods()
                + " pods, median of "
                + options.repeats(),
            CeilingPhase.NAME,
            KubeSchedulerPhase.NAME,
            JobsPathPhase.NAME,
            ArrangerPhase.NAME);
    table.row(
        "pods/s",
        Report.num(ceilingRate, 0),
        Report.num(kubeRate, 0),
        Report.num(jobsRate, 0),
        Report.num(arrangerRate, 0));
    table.row(
        "pods/s of each run",
        Report.runs(rates(ceiling), 0),
        Report.runs(rates(kube), 0),
        Report.runs(rates(jobs), 0),
        Report.runs(rates(arranger), 0));
    table.row(
        "s to the last pod with a node",
        num(ceiling, PhaseRun::seconds, 2),
        num(kube, PhaseRun::seconds, 2),
        num(jobs, PhaseRun::seconds, 2),
        num(arranger, PhaseRun::seconds, 2));
    table.row(
        "s of the benchmark's creates",
        num(ceiling, PhaseRun::createSeconds, 2),
        num(kube, PhaseRun::createSeconds, 2),
        num(jobs, PhaseRun::createSeconds, 2),
        num(arranger, PhaseRun::createSeconds, 2));
    table.row(
        "pods only, services watching: pods/s (each run)",
        "",
        "",
        "",
        num(podsOnly, PhaseRun::podsPerSecond, 0) + " (" + Report.runs(rates(podsOnly), 0) + ")");
    table.row(
        "pods only: CPU s kube-apiserver + etcd / scheduler / controller / benchmark / machine",
        "",
        "",
        "",
        num(podsOnly, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1)
            + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("scheduler"), 1)
            + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("controller"), 1)
            + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("benchmark"), 1)
            + " / "
            + num(podsOnly, r -> r.cpuSeconds().get("machine"), 1));
    table.row(
        "÷ ceiling",
        Report.num(Report.ratio(ceilingRate, ceilingRate), 2),
        Report.num(Report.ratio(kubeRate, ceilingRate), 2),
        Report.num(Report.ratio(jobsRate, ceilingRate), 2),
        Report.num(Report.ratio(arrangerRate, ceilingRate), 2));
    table.row(
        "arranger ÷ kube-scheduler",
        "",
        "",
        "",
        Report.num(Report.ratio(arrangerRate, kubeRate), 2) + "×");
    table.row(
        "arranger ÷ jobs path",
        "",
        "",
        "",
        Report.num(Report.ratio(arrangerRate, jobsRate), 2) + "×");
    table.row(
        "API writes/pod (all, until done)",
        num(ceiling, r -> r.totalWrites() / r.pods(), 2),
        num(kube, r -> r.totalWrites() / r.pods(), 2),
        num(jobs, r -> r.totalWrites() / r.pods(), 2),
        num(arranger, r -> r.totalWrites() / r.pods(), 2));
    table.row(
        "API writes/pod by the scheduler(s)",
        "0 (nodeName preset)",
        num(kube, PhaseRun::serviceWritesPerPod, 2),
        num(jobs, PhaseRun::serviceWritesPerPod, 2),
        num(arranger, PhaseRun::serviceWritesPerPod, 2));
    table.row(
        "API requests/pod (all but watches, until done)",
        num(ceiling, PhaseRun::requestsPerPod, 2),
        num(kube, PhaseRun::requestsPerPod, 2),
        num(jobs, PhaseRun::requestsPerPod, 2),
        num(arranger, PhaseRun::requestsPerPod, 2));
    table.row(
        "TYJob writes/job until done / in the " + options.settleSeconds() + " s after",
        "",
        "",
        "",
        num(arranger, r -> r.tyJobWritesPerJob(false), 2)
            + " / "
            + num(arranger, r -> r.tyJobWritesPerJob(true), 2));
    table.row(
        "Events/job until done / in the " + options.settleSeconds() + " s after",
        "",
        num(kube, r -> r.eventsPerJob(false), 2) + " (8 pods)",
        num(jobs, r -> r.eventsPerJob(false), 2),
        num(arranger, r -> r.eventsPerJob(false), 2)
            + " / "
            + num(arranger, r -> r.eventsPerJob(true), 2));
    table.row(
        "scheduler cycle p50 / p99 ms (in phase)",
        "",
        "",
        "",
        Report.num(1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.5)), 0)
            + " / "
            + Report.num(
                1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.99)), 0));
    table.row(
        "scheduler cycle p50 / p99 ms (/actuator)",
        "",
        "",
        "",
        Report.num(
                1000
                    * medianOf(arranger, r -> r.serviceQuantiles().getOrDefault("p50", Double.NaN)),
                0)
            + " / "
            + Report.num(
                1000
                    * medianOf(arranger, r -> r.serviceQuantiles().getOrDefault("p99", Double.NaN)),
                0));
    table.row(
        "core part of the cycle p50 ms",
        "",
        "",
        "",
        Report.num(1000 * medianOf(arranger, r -> Report.quantile(r.coreSeconds(), 0.5)), 0));
    table.row("cycles in the phase", "", "", "", num(arranger, r -> r.cycleSeconds().size(), 0));
    table.row(
        "peak heap MiB",
        "",
        "Go heap in use "
            + num(kube, r -> r.peaksMiB().get("kube-scheduler Go heap in use"), 0)
            + ", RSS "
            + num(kube, r -> r.peaksMiB().get("kube-scheduler RSS (VmHWM)"), 0),
        "",
        "scheduler "
            + num(arranger, r -> r.peaksMiB().get("scheduler heap"), 0)
            + ", controller "
            + num(arranger, r -> r.peaksMiB().get("controller heap"), 0));
    table.row(
        "CPU s: kube-apiserver + etcd",
        num(ceiling, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1),
        num(kube, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1),
        num(jobs, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1),
        num(arranger, r -> r.cpuSeconds().get("kube-apiserver") + r.cpuSeconds().get("etcd"), 1));
    table.row(
        "CPU s: scheduler(s) / controller",
        "",
        num(kube, r -> r.cpuSeconds().get(KubeSchedulerPhase.NAME), 1),
        num(jobs, r -> r.cpuSeconds().get(KubeSchedulerPhase.NAME), 1)
            + " / "
            + num(jobs, r -> r.cpuSeconds().get("kube-controller-manager"), 1),
        num(arranger, r -> r.cpuSeconds().get("scheduler"), 1)
            + " / "
            + num(arranger, r -> r.cpuSeconds().get("controller"), 1));
    table.row(
        "CPU s: benchmark / machine",
        num(ceiling, r -> r.cpuSeconds().get("benchmark"), 1)
            + " / "
            + num(ceiling, r -> r.cpuSeconds().get("machine"), 1),
        num(kube, r -> r.cpuSeconds().get("benchmark"), 1)
            + " / "
            + num(kube, r -> r.cpuSeconds().get("machine"), 1),
        num(jobs, r -> r.cpuSeconds().get("benchmark"), 1)
            + " / "
            + num(jobs, r -> r.cpuSeconds().get("machine"), 1),
        num(arranger, r -> r.cpuSeconds().get("benchmark"), 1)
            + " / "
            + num(arranger, r -> r.cpuSeconds().get("machine"), 1));

    System.out.println();
    System.out.print(table.render());
    System.out.println(
        "peak heap: jvm_memory_used_bytes{area=\"heap\"} summed over pools, max of /actuator/prometheus"
            + " scrapes every "
            + options.sampleMillis()
            + " ms during each phase; kube-scheduler: go_memstats_heap_inuse_bytes"
            + " (scraped every 1 s) and VmHWM. Cycle p50/p99 (in phase): each cycle's duration from the change of the"
            + " e2e timer's _count/_sum between scrapes; (/actuator): estimated from the service's histogram buckets at the finish line.");
    for (PhaseRun run : kube.isEmpty() ? List.<PhaseRun>of() : List.of(kube.get(kube.size() - 1))) {
      System.out.println("kube-scheduler writes (last run): " + Descriptions.writes(run.writes()));
    }
    for (PhaseRun run :
        arranger.isEmpty() ? List.<PhaseRun>of() : List.of(arranger.get(arranger.size() - 1))) {
      System.out.println("arranger writes (last run): " + Descriptions.writes(run.writes()));
      if (!run.trailingWrites().isEmpty()) {
        System.out.println(
            "arranger writes in the "
                + options.settleSeconds()
                + " s after the finish line (last run): "
                + Descriptions.writes(run.trailingWrites()));
      }
    }
    if (!podsOnly.isEmpty()) {
      System.out.println(
          Report.floorLine(options.nodes(), options.pods(), podsOnlyRate, kubeRate, ceilingRate));
    }
    System.out.println(
        Report.summaryLine(
            options.nodes(),
            options.pods(),
            new Report.Rates(arrangerRate, jobsRate, kubeRate, ceilingRate, podsOnlyRate),
            new Report.Cost(
                medianOf(arranger, PhaseRun::requestsPerPod),
                medianOf(arranger, r -> r.tyJobWritesPerJob(false)),
                medianOf(arranger, r -> r.eventsPerJob(false)),
                1000 * medianOf(arranger, r -> Report.quantile(r.cycleSeconds(), 0.99)))));
    printBigJob();
  }

  /** The big job's line, when it ran: the last line, after the e2e line. */
  private void printBigJob() {
    List<PhaseRun> big = runs.getOrDefault(BigJobPhase.NAME, List.of());
    if (big.isEmpty()) {
      return;
    }
    System.out.println(
        Report.bigJobLine(
            options.bigJobActors(),
            medianOf(big, PhaseRun::seconds),
            Report.runs(big.stream().map(PhaseRun::seconds).toList(), 2)));
  }

  private static List<Double> rates(List<PhaseRun> runs) {
    return runs.stream().map(PhaseRun::podsPerSecond).toList();
  }

  private static double medianOf(List<PhaseRun> runs, ToDoubleFunction<PhaseRun> value) {
    return Report.median(runs.stream().map(value::applyAsDouble).toList());
  }

  private static String num(List<PhaseRun> runs, ToDoubleFunction<PhaseRun> value, int decimals) {
    return Report.num(medianOf(runs, value), decimals);
  }
}
