package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.engine.Simulation;
import io.tyrl.arranger.simulator.engine.SimulationSettings;
import io.tyrl.arranger.simulator.engine.Variant;
import io.tyrl.arranger.simulator.metrics.GreedyBound;
import io.tyrl.arranger.simulator.metrics.QualityMetrics;
import io.tyrl.arranger.simulator.metrics.QueueSummary;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.RunSummary;
import io.tyrl.arranger.simulator.metrics.TenantMetrics;
import io.tyrl.arranger.simulator.metrics.TenantSummary;
import io.tyrl.arranger.simulator.metrics.TopologySummary;
import io.tyrl.arranger.simulator.report.Comparison;
import io.tyrl.arranger.simulator.report.HtmlReport;
import io.tyrl.arranger.simulator.report.SeriesCsv;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.CsvImport;
import io.tyrl.arranger.simulator.trace.CsvProblem;
import io.tyrl.arranger.simulator.trace.GeneratorSettings;
import io.tyrl.arranger.simulator.trace.Gpus;
import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import io.tyrl.arranger.simulator.trace.QueueTreeCsv;
import io.tyrl.arranger.simulator.trace.TenantSettings;
import io.tyrl.arranger.simulator.trace.TenantTraceGenerator;
import io.tyrl.arranger.simulator.trace.TopologyMarks;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceCsv;
import io.tyrl.arranger.simulator.trace.TraceGenerator;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * {@code scripts/simulate.sh}: runs each configuration (and the baseline) on one trace, prints the
 * comparison, writes the report and its CSV, and ends with the one-line {@code sim ...} summary.
 */
public final class SimulateCommand {

  /** The performance target stated for the simulator: 10,000 jobs over 1,000 nodes within this. */
  static final double TARGET_WALL_SECONDS = 60;

  private SimulateCommand() {}

  public static void main(String[] args) {
    if (java.util.Arrays.asList(args).contains("--help")) {
      System.out.print(SimulateOptions.USAGE);
      System.out.print(CycleReplay.USAGE);
      System.out.print(FairnessCommand.USAGE);
      System.out.print(OpenbCommand.USAGE);
      return;
    }
    if (java.util.Arrays.asList(args).contains("--fairness")) {
      fairness(args);
      return;
    }
    if (java.util.Arrays.asList(args).contains("--openb")) {
      OpenbCommand.main(args, Path.of(System.getProperty("arranger.projectRoot", ".")));
      return;
    }
    if (java.util.Arrays.asList(args).contains("--snapshot")) {
      replay(args);
      return;
    }
    Path root = Path.of(System.getProperty("arranger.projectRoot", "."));
    SimulateOptions options;
    try {
      options = SimulateOptions.parse(args, root);
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      System.err.print(SimulateOptions.USAGE);
      System.exit(2);
      return;
    }
    try {
      run(options, System.out);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("simulate: " + e.getMessage());
      System.exit(1);
    }
  }

  /** The fairness-over-time trace with and without past usage counted ({@link FairnessCommand}). */
  private static void fairness(String[] args) {
    FairnessCommand.Options options;
    try {
      options = FairnessCommand.Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      System.err.print(FairnessCommand.USAGE);
      System.exit(2);
      return;
    }
    FairnessCommand.run(options, System.out);
  }

  /** One live cycle run again with other configurations ({@link CycleReplay}). */
  private static void replay(String[] args) {
    CycleReplay.Options options;
    try {
      options = CycleReplay.Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      System.err.print(CycleReplay.USAGE);
      System.exit(2);
      return;
    }
    try {
      CycleReplay.run(options, System.out);
    } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
      System.err.println("simulate: " + e.getMessage());
      System.exit(1);
    }
  }

  static Comparison run(SimulateOptions options, PrintStream out) {
    ClusterShape cluster =
        options.topology()
            ? ClusterShape.gpuNodes(options.nodes()).withTopology()
            : ClusterShape.gpuNodes(options.nodes());
    Trace trace;
    String traceName;
    String load;
    if (options.trace() != null) {
      QueueTree tree = options.queues() == null ? null : QueueTreeCsv.read(options.queues());
      CsvImport imported = TraceCsv.read(options.trace(), tree);
      reportProblems(imported.problems(), options.trace());
      trace = imported.trace();
      if (trace.jobs().isEmpty()) {
        throw new IllegalArgumentException(
            "trace " + options.trace() + " has no job that could be read");
      }
      traceName = options.trace().toString();
      load = String.format(Locale.ROOT, "%.2f", offeredGpuLoad(trace, cluster));
    } else if (options.tenants()) {
      trace =
          TenantTraceGenerator.generate(
              TenantSettings.of(options.jobs(), options.seed(), options.load(), options.nodes()));
      traceName =
          "generated multi-team RL trace (seed "
              + options.seed()
              + ", offered load "
              + options.load()
              + ", bursts)";
      load = String.format(Locale.ROOT, "%s", options.load());
    } else {
      trace =
          TraceGenerator.generate(
              new GeneratorSettings(
                  options.jobs(),
                  options.seed(),
                  options.load(),
                  cluster,
                  GeneratorSettings.DEFAULT_QUEUES));
      traceName =
          "generated RL trace (seed " + options.seed() + ", offered load " + options.load() + ")";
      load = String.format(Locale.ROOT, "%s", options.load());
    }
    if (options.topology()) {
      trace = TopologyMarks.mark(trace, cluster);
    }
    if (options.writeTrace() != null) {
      TraceCsv.write(trace, options.writeTrace());
      out.println("[sim] trace written to " + options.writeTrace());
    }
    if (options.writeQueues() != null) {
      QueueTreeCsv.write(trace.queues(), options.writeQueues());
      out.println("[sim] queue tree written to " + options.writeQueues());
    }
    boolean tenancy = !trace.queues().isFlatWeightsOnly();
    out.printf(
        Locale.ROOT,
        "[sim] %s: %d jobs, last submission at %.1f h, %d nodes (%d GPUs)%n",
        traceName,
        trace.jobs().size(),
        trace.lastSubmitSeconds() / 3600,
        options.nodes(),
        Gpus.whole(cluster.capacity()));

    SchedulerConfigurationParser parser =
        new SchedulerConfigurationParser(
            new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE)
                .vocabulary());
    List<Variant> variants = new ArrayList<>();
    if (options.configs().isEmpty()) {
      variants.add(Variant.of("default", DefaultSchedulerConfiguration.YAML, parser));
    }
    for (Path config : options.configs()) {
      variants.add(Variant.fromFile(config, parser));
    }
    if (options.baseline()) {
      variants.add(Variant.volcanoLike(parser));
    }
    if (options.topology()) {
      variants = withTopologyBlindTwins(variants);
    }
    GreedyBound bound = GreedyBound.of(trace, cluster.capacity());
    List<RunRecord> runs = simulate(trace, cluster, variants, options, out);
    double windowStart = options.warmup() * trace.lastSubmitSeconds();
    List<RunSummary> summaries =
        runs.stream().map(run -> QualityMetrics.summarize(run, bound, windowStart)).toList();

    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        "trace",
        traceName
            + ", "
            + trace.jobs().size()
            + " jobs, queues "
            + (tenancy ? describe(trace.queues()) : trace.queueWeights()));
    parameters.put("cluster", options.nodes() + " nodes of " + ClusterShape.GPU_NODE);
    parameters.put(
        "configurations", String.join(", ", variants.stream().map(Variant::name).toList()));
    SimulationSettings settings = options.settings();
    parameters.put(
        "simulation",
        "cycle period "
            + settings.period().toMillis() / 1000.0
            + " s"
            + (settings.cycleOnChange()
                ? ", Arranger's configurations also cycling on change (no sooner than "
                    + settings.minCycleInterval().toMillis() / 1000.0
                    + " s after the last cycle), the baseline every period only"
                : ", every configuration cycling every period only")
            + ", pod startup "
            + settings.podStartup().toMillis() / 1000.0
            + " s, pod termination "
            + settings.podTermination().toMillis() / 1000.0
            + " s, deadlock threshold without waitTime "
            + settings.deadlockAfter().toSeconds()
            + " s");
    parameters.put(
        "measurement window",
        String.format(
            Locale.ROOT,
            "%.1f – %.1f h (from %.0f %% of the submission period,"
                + " once the cluster has filled, to the last submission); delays and completion times of the jobs submitted in it",
            windowStart / 3600,
            trace.lastSubmitSeconds() / 3600,
            options.warmup() * 100));
    Comparison comparison =
        new Comparison("Arranger scheduling simulation", parameters, bound, runs, summaries);
    Path html = options.out().resolve("report.html");
    HtmlReport.write(comparison, html);
    SeriesCsv.write(comparison, options.out());

    printTables(summaries, out, !tenancy);
    for (RunSummary summary : summaries) {
      out.printf(
          Locale.ROOT,
          "sim-perf configuration=%s jobs=%d nodes=%d cycles=%d wall-s=%.1f cpu-s=%.1f target-wall-s=%.0f%n",
          summary.variant(),
          summary.jobs(),
          options.nodes(),
          summary.cycles(),
          summary.wallMillis() / 1000.0,
          summary.cpuMillis() / 1000.0,
          TARGET_WALL_SECONDS);
    }
    out.println(
        "[sim] report "
            + html
            + "; raw series "
            + options.out().resolve("series.csv")
            + ", jobs.csv, summary.csv");
    RunSummary main = summaries.get(0);
    RunSummary baseline = options.baseline() ? summaries.get(summaries.size() - 1) : null;
    out.printf(
        Locale.ROOT,
        "sim-targets configuration=%s gpu-alloc>=95%%-of-bound=%s deadlocks=0:%s share-dev<=5%%:%s"
            + " p95-wait-below-baseline=%s%n",
        main.variant(),
        yes(main.ofGreedyBound() >= 0.95),
        yes(main.deadlocks() == 0),
        yes(main.shareDeviation() <= 0.05),
        baseline == null ? "-" : yes(main.waitP95() < baseline.waitP95()));
    out.printf(
        Locale.ROOT,
        "sim jobs=%d nodes=%d load=%s gpu-alloc=%s greedy-bound=%s deadlocks=%d share-dev=%s"
            + " p95-wait-s=%.1f baseline-p95-wait-s=%s report=%s%n",
        main.jobs(),
        options.nodes(),
        load,
        Formats.percent(main.gpuAlloc()),
        Formats.percent(main.greedyBound()),
        main.deadlocks(),
        Formats.percent(main.shareDeviation()),
        main.waitP95(),
        baseline == null ? "-" : String.format(Locale.ROOT, "%.1f", baseline.waitP95()),
        html);
    if (tenancy) {
      double grace =
          TenantMetrics.graceSeconds(
              settings.periodSeconds(), settings.podTermination().toMillis() / 1000.0);
      List<TenantSummary> tenants =
          runs.stream().map(run -> TenantMetrics.summarize(run, windowStart, grace)).toList();
      TenantTables.print(tenants, out);
      TenantSummary first = tenants.get(0);
      TenantSummary flat = options.baseline() ? tenants.get(tenants.size() - 1) : null;
      out.printf(
          Locale.ROOT,
          "sim-tenants-targets configuration=%s guarantee-violations=0:%s"
              + " share-dev<=5%%-every-level:%s core-evictions-while-surplus=0:%s (%d)%n",
          first.variant(),
          yes(first.guaranteeViolations() == 0),
          yes(first.levels().stream().allMatch(level -> level.shareDevMax() <= 0.05)),
          yes(first.coreEvictionsWhileSurplus() == 0),
          first.coreEvictionsWhileSurplus());
      out.printf(
          Locale.ROOT,
          "sim-tenants queues=%d levels=%d load=%s guarantee-violations=%d share-dev-max=%s"
              + " core-evictions=%d surplus-evictions=%d baseline-share-dev-max=%s%n",
          trace.queues().queues().size(),
          trace.queues().depth(),
          load,
          first.guaranteeViolations(),
          Formats.percent(first.shareDevMax()),
          first.coreEvictions(),
          first.surplusEvictions(),
          flat == null ? "-" : Formats.percent(flat.shareDevMax()));
    }
    if (options.topology()) {
      RunSummary blind =
          summaries.stream()
              .filter(summary -> summary.variant().equals(main.variant() + TOPOLOGY_BLIND))
              .findFirst()
              .orElseThrow();
      TopologySummary topology = TopologySummary.of(runs.get(0));
      out.printf(
          Locale.ROOT,
          "sim-topology jobs=%d required-in-domain=%s preferred-in-domain=%s"
              + " preferred-all-pods-in-domain=%s gpu-alloc=%s topology-blind-gpu-alloc=%s"
              + " deadlocks=%d%n",
          main.jobs(),
          Formats.percent(topology.requiredInDomain()),
          Formats.percent(topology.preferredMinimumInDomain()),
          Formats.percent(topology.preferredInDomain()),
          Formats.percent(main.gpuAlloc()),
          Formats.percent(blind.gpuAlloc()),
          main.deadlocks());
    }
    return comparison;
  }

  static final String TOPOLOGY_BLIND = "-topology-blind";

  /**
   * Each of Arranger's configurations with the cluster's levels, then each again with the jobs'
   * topology dropped (named {@code <name>-topology-blind}), then the baseline, which knows no
   * topology, with it dropped too.
   */
  static List<Variant> withTopologyBlindTwins(List<Variant> variants) {
    List<Variant> aware = new ArrayList<>();
    List<Variant> blind = new ArrayList<>();
    Variant baseline = null;
    for (Variant variant : variants) {
      UnaryOperator<TraceJob> dropped =
          job -> variant.jobs().apply(job).withTopology(TopologyRequest.NONE);
      if (variant.name().equals(Variant.VOLCANO_LIKE_NAME)) {
        baseline =
            new Variant(
                variant.name(),
                variant.yaml(),
                variant.configuration(),
                dropped,
                variant.cyclesOnChange(),
                variant.queues());
        continue;
      }
      aware.add(
          new Variant(
              variant.name(),
              variant.yaml(),
              variant.configuration().withTopologyLevels(new TopologyLevels(ClusterShape.LEVELS)),
              variant.jobs(),
              variant.cyclesOnChange(),
              variant.queues()));
      blind.add(
          new Variant(
              variant.name() + TOPOLOGY_BLIND,
              variant.yaml(),
              variant.configuration(),
              dropped,
              variant.cyclesOnChange(),
              variant.queues()));
    }
    List<Variant> all = new ArrayList<>(aware);
    all.addAll(blind);
    if (baseline != null) {
      all.add(baseline);
    }
    return all;
  }

  /** The tree in one line: each queue with its parent, weight, priority, guarantee and limit. */
  static String describe(QueueTree tree) {
    List<String> parts = new ArrayList<>();
    for (QueueSpec queue : tree.queues()) {
      parts.add(
          queue.name()
              + (queue.parent() == null ? "" : " under " + queue.parent())
              + " (weight "
              + queue.weight()
              + (queue.priority() == 0 ? "" : ", priority " + queue.priority())
              + (queue.guaranteeGpu() == 0 ? "" : ", guaranteed " + queue.guaranteeGpu() + " GPUs")
              + (queue.capabilityGpu() == Long.MAX_VALUE
                  ? ""
                  : ", at most " + queue.capabilityGpu() + " GPUs")
              + ")");
    }
    return String.join("; ", parts);
  }

  private static List<RunRecord> simulate(
      Trace trace,
      ClusterShape cluster,
      List<Variant> variants,
      SimulateOptions options,
      PrintStream out) {
    int threads =
        options.threads() > 0
            ? options.threads()
            : Math.min(variants.size(), Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<RunRecord>> futures = new ArrayList<>();
      for (Variant variant : variants) {
        futures.add(
            pool.submit(
                () -> {
                  RunRecord run = Simulation.run(trace, cluster, variant, options.settings());
                  out.printf(
                      Locale.ROOT,
                      "[sim] %s: %d cycles in %.1f s (%.1f s of CPU)%n",
                      variant.name(),
                      run.cycles(),
                      run.wallMillis() / 1000.0,
                      run.cpuMillis() / 1000.0);
                  return run;
                }));
      }
      List<RunRecord> runs = new ArrayList<>();
      for (Future<RunRecord> future : futures) {
        runs.add(future.get());
      }
      return runs;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a simulation failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static void printTables(List<RunSummary> summaries, PrintStream out, boolean queueTable) {
    out.printf(
        Locale.ROOT,
        "%n%-18s %9s %8s %9s %8s %9s %9s %10s %10s %10s %10s %7s %7s %6s %6s %7s%n",
        "configuration",
        "gpu-alloc",
        "of-bound",
        "cpu-alloc",
        "reserved",
        "deadlocks",
        "share-dev",
        "wait-p50-s",
        "wait-p95-s",
        "jct-p50-s",
        "jct-p95-s",
        "preempt",
        "reclaim",
        "failed",
        "never",
        "cycles");
    for (RunSummary s : summaries) {
      out.printf(
          Locale.ROOT,
          "%-18s %9s %8s %9s %8s %9d %9s %10.1f %10.1f %10.1f %10.1f %7d %7d %6d %6d %7d%n",
          s.variant(),
          Formats.percent(s.gpuAlloc()),
          Formats.percent(s.ofGreedyBound()),
          Formats.percent(s.cpuAlloc()),
          Formats.percent(s.gpuReserved()),
          s.deadlocks(),
          Formats.percent(s.shareDeviation()),
          s.waitP50(),
          s.waitP95(),
          s.jctP50(),
          s.jctP95(),
          s.preemptions(),
          s.reclaims(),
          s.failed(),
          s.neverStarted(),
          s.cycles());
    }
    out.printf(
        Locale.ROOT,
        "%-18s %9s%n",
        "greedy bound",
        Formats.percent(summaries.get(0).greedyBound()));
    if (!queueTable) {
      out.println();
      return;
    }
    out.printf(
        Locale.ROOT,
        "%n%-18s %-10s %6s %8s %9s %9s %10s %10s %6s%n",
        "configuration",
        "queue",
        "weight",
        "held",
        "deserved",
        "deviation",
        "wait-p50-s",
        "wait-p95-s",
        "jobs");
    for (RunSummary s : summaries) {
      for (QueueSummary q : s.queues()) {
        out.printf(
            Locale.ROOT,
            "%-18s %-10s %6d %8s %9s %9s %10.1f %10.1f %6d%n",
            s.variant(),
            q.queue(),
            q.weight(),
            Formats.percent(q.heldShare()),
            Formats.percent(q.deservedShare()),
            Formats.percent(q.deviation()),
            q.waitP50(),
            q.waitP95(),
            q.jobs());
      }
    }
    out.println();
  }

  private static void reportProblems(List<CsvProblem> problems, Path file) {
    int shown = 0;
    for (CsvProblem problem : problems) {
      if (shown++ == 20) {
        System.err.println(
            "simulate: " + file + ": " + (problems.size() - 20) + " more rows left out");
        break;
      }
      System.err.println("simulate: " + file + ": " + problem + " (row left out)");
    }
  }

  /** GPU·seconds asked for over GPU·seconds the cluster has until the last submission. */
  static double offeredGpuLoad(Trace trace, ClusterShape cluster) {
    double demand = 0;
    for (TraceJob job : trace.jobs()) {
      demand += (double) Gpus.whole(job.fullRequest()) * job.duration().toMillis() / 1000.0;
    }
    double available = (double) Gpus.whole(cluster.capacity()) * trace.lastSubmitSeconds();
    return available > 0 ? demand / available : Double.NaN;
  }

  private static String yes(boolean value) {
    return value ? "yes" : "no";
  }
}
