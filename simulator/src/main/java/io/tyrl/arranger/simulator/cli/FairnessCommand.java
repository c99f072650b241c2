package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.SchedulerVocabulary;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.engine.Simulation;
import io.tyrl.arranger.simulator.engine.SimulationSettings;
import io.tyrl.arranger.simulator.engine.Variant;
import io.tyrl.arranger.simulator.metrics.FairnessMetrics;
import io.tyrl.arranger.simulator.metrics.Percentiles;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.FairnessTraceGenerator;
import io.tyrl.arranger.simulator.trace.Gpus;
import io.tyrl.arranger.simulator.trace.Trace;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * {@code simulate.sh --fairness}: the fairness-over-time trace ({@link FairnessTraceGenerator})
 * through the default configuration (its default strength k) and the same with k = 0 (the split by
 * weight alone). Reports each team's GPU-hours and part of them over the whole run and over its
 * last 24 hours, and team B's waits; ends with the {@code sim-fairness} line.
 */
final class FairnessCommand {

  static final String USAGE =
      """
      usage: simulate.sh --fairness [--hours H] [--sweep-hours H] [--nodes N] [--team-load L] [--seed S]
        --fairness         team A runs a sweep alone for --sweep-hours (12), then teams A and B (equal weights,
                           no guarantees) both submit for --hours (48), each offering --team-load (0.75) of
                           the cluster; run with the default configuration and with fairness.strength 0;
                           ends with a sim-fairness line
        --nodes            the cluster's nodes, each 8 GPUs (16)
      """;

  /** The options of a fairness run. */
  record Options(double sweepHours, double hours, int nodes, double teamLoad, long seed) {

    static Options parse(String[] args) {
      double sweepHours = 12;
      double hours = 48;
      int nodes = 16;
      double teamLoad = 0.75;
      long seed = 1;
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        switch (flag) {
          case "--fairness" -> {}
          case "--hours" -> hours = number(args, ++i, flag);
          case "--sweep-hours" -> sweepHours = number(args, ++i, flag);
          case "--nodes" -> nodes = (int) number(args, ++i, flag);
          case "--team-load" -> teamLoad = number(args, ++i, flag);
          case "--seed" -> seed = (long) number(args, ++i, flag);
          default -> throw new IllegalArgumentException("unknown option with --fairness: " + flag);
        }
      }
      if (nodes < 1) {
        throw new IllegalArgumentException("--nodes must be >= 1, was " + nodes);
      }
      return new Options(sweepHours, hours, nodes, teamLoad, seed);
    }

    private static double number(String[] args, int i, String flag) {
      if (i >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      try {
        return Double.parseDouble(args[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + ": not a number: " + args[i]);
      }
    }
  }

  /** One configuration's run, measured. */
  record Outcome(
      String name,
      double strength,
      List<FairnessMetrics.QueueShare> wholeRun,
      List<FairnessMetrics.QueueShare> last24h,
      double bWaitP50,
      double bWaitP95,
      int bJobs) {}

  private FairnessCommand() {}

  static Outcome[] run(Options options, PrintStream out) {
    ClusterShape cluster = ClusterShape.gpuNodes(options.nodes());
    FairnessTraceGenerator.Settings settings =
        new FairnessTraceGenerator.Settings(
            options.sweepHours(),
            options.hours(),
            Gpus.whole(cluster.capacity()),
            options.teamLoad(),
            options.seed());
    Trace trace = FairnessTraceGenerator.generate(settings);
    SchedulerConfigurationParser parser =
        new SchedulerConfigurationParser(
            new SchedulerVocabulary(BuiltInPlugins.registry(), BuiltInActions.registry()));
    Variant byDefault = Variant.of("default", DefaultSchedulerConfiguration.YAML, parser);
    Variant baseline =
        Variant.of("k=0", DefaultSchedulerConfiguration.YAML + "fairness: {strength: 0}\n", parser);
    out.printf(
        Locale.ROOT,
        "fairness trace: %d jobs, %d GPUs; %s alone for %.0f h, then %s and %s for %.0f h at %.2f"
            + " of the cluster each%n",
        trace.jobs().size(),
        settings.clusterGpus(),
        FairnessTraceGenerator.TEAM_A,
        options.sweepHours(),
        FairnessTraceGenerator.TEAM_A,
        FairnessTraceGenerator.TEAM_B,
        options.hours(),
        options.teamLoad());
    CompletableFuture<Outcome> ours =
        CompletableFuture.supplyAsync(() -> measure(trace, byDefault, settings));
    Outcome base = measure(trace, baseline, settings);
    Outcome withHistory = ours.join();
    print(withHistory, out);
    print(base, out);
    out.printf(
        Locale.ROOT,
        "sim-fairness hours=%.0f k=%s long-run-share-dev=%.1f baseline-long-run-share-dev=%.1f"
            + " b-wait-p95-s=%.0f baseline-b-wait-p95-s=%.0f%n",
        options.sweepHours() + options.hours(),
        strength(withHistory.strength()),
        FairnessMetrics.maxDeviationPercent(withHistory.wholeRun()),
        FairnessMetrics.maxDeviationPercent(base.wholeRun()),
        withHistory.bWaitP95(),
        base.bWaitP95());
    return new Outcome[] {withHistory, base};
  }

  private static String strength(double k) {
    return k == Math.rint(k) ? Long.toString((long) k) : Double.toString(k);
  }

  static Outcome measure(Trace trace, Variant variant, FairnessTraceGenerator.Settings settings) {
    RunRecord run =
        Simulation.run(trace, ClusterShape.gpuNodes(nodes(settings)), variant, SETTINGS);
    double end = settings.endSeconds();
    double sweepEnd = settings.sweepHours() * 3600;
    double[] waits = FairnessMetrics.waits(run, FairnessTraceGenerator.TEAM_B, sweepEnd, end);
    return new Outcome(
        variant.name(),
        variant.configuration().fairness().strength(),
        FairnessMetrics.shares(run, 0, end),
        FairnessMetrics.shares(run, Math.max(0, end - 24 * 3600), end),
        Percentiles.of(waits, 50),
        Percentiles.of(waits, 95),
        waits.length);
  }

  /** The service's defaults; the run goes on after the last submission until every job ran. */
  private static final SimulationSettings SETTINGS = SimulationSettings.DEFAULTS;

  private static int nodes(FairnessTraceGenerator.Settings settings) {
    return (int) (settings.clusterGpus() / 8);
  }

  private static void print(Outcome outcome, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%n%s (fairness.strength %s)%n  %-8s %14s %9s %14s %9s%n",
        outcome.name(),
        strength(outcome.strength()),
        "queue",
        "GPU-h (run)",
        "part",
        "GPU-h (24 h)",
        "part");
    for (int q = 0; q < outcome.wholeRun().size(); q++) {
      FairnessMetrics.QueueShare whole = outcome.wholeRun().get(q);
      FairnessMetrics.QueueShare last = outcome.last24h().get(q);
      out.printf(
          Locale.ROOT,
          "  %-8s %14.0f %8.1f%% %14.0f %8.1f%%%n",
          whole.queue(),
          whole.gpuHours(),
          100 * whole.part(),
          last.gpuHours(),
          100 * last.part());
    }
    double aWhole = outcome.wholeRun().get(0).gpuHours();
    double bWhole = outcome.wholeRun().get(1).gpuHours();
    double aLast = outcome.last24h().get(0).gpuHours();
    double bLast = outcome.last24h().get(1).gpuHours();
    out.printf(
        Locale.ROOT,
        "  GPU-hours ratio A:B %.2f over the run, %.2f over the last 24 h; team-b waits p50 %.0f s,"
            + " p95 %.0f s (%d jobs)%n",
        aWhole / bWhole,
        aLast / bLast,
        outcome.bWaitP50(),
        outcome.bWaitP95(),
        outcome.bJobs());
  }
}
