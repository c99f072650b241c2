package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.simulator.engine.SimulationSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code scripts/simulate.sh}.
 *
 * @param trace a trace CSV, or null for a generated trace
 * @param queues a queue tree CSV for the trace's queues, or null (the queues the jobs name, flat)
 * @param tenants whether the generated trace is the multi-team one over a queue tree
 * @param configs scheduler configuration files, in report order; empty with {@code tenants} for the
 *     scheduler's built-in default
 * @param baseline whether the Volcano-default-like baseline runs too
 * @param writeTrace where to write the trace as CSV (e.g. the generated one), or null
 * @param warmup the fraction of the submission period left out of the measurement window
 * @param topology whether nodes carry zone, block and rack labels and part of the jobs ask for
 *     topology, each configuration run beside itself with topology ignored
 */
record SimulateOptions(
    Path trace,
    Path queues,
    boolean tenants,
    int jobs,
    int nodes,
    double load,
    long seed,
    List<Path> configs,
    boolean baseline,
    Path out,
    Path writeTrace,
    Path writeQueues,
    int threads,
    double warmup,
    SimulationSettings settings,
    boolean topology) {

  static final String USAGE =
      """
      usage: simulate.sh [--trace FILE.csv [--queues TREE.csv] | [--tenants] --jobs N --load L --seed S] [--nodes N]
                         [--config SCHEDULER.yaml]... [--no-baseline] [--out DIR] [--write-trace FILE.csv]
                         [--write-queues TREE.csv]
                         [--period S] [--pod-startup S] [--pod-termination S] [--deadlock-after S] [--drain S]
                         [--min-cycle-interval S] [--periodic-cycles] [--warmup F] [--threads N] [--topology]
        --trace            replay a CSV of job submissions (columns: docs/simulator.md); without it, a trace is
                           generated: --jobs (10000) RL jobs at --load (0.9) offered load, seeded by --seed (1)
        --queues           with --trace: the queue tree its jobs are submitted to (columns: docs/simulator.md)
        --tenants          generate the multi-team trace instead: 3 departments of 2-3 teams with guarantees,
                           weights, a priority and limits, teams submitting in bursts; --jobs (2000) at --load
                           (1.3) on --nodes (100), against the scheduler's built-in default configuration
        --nodes            the cluster's nodes, each 8 GPUs, 128 cpu, 1Ti (1000)
        --config           a scheduler configuration to compare (repeatable; default config/scheduler/default.yaml,
                           with --tenants the built-in default)
        --no-baseline      leave out the Volcano-default-like baseline
        --out              where the report (report.html) and its CSV go (simulation-report)
        --write-trace      write the trace's jobs as CSV; --write-queues its queue tree
        --period           the scheduler's cycle period in seconds (1)
        --min-cycle-interval  Arranger's configurations also cycle soon after each change, as the service does,
                           no sooner than this many seconds after the last cycle (0.1); the baseline never does
        --periodic-cycles  Arranger's configurations cycle every period only, like the baseline
        --topology         nodes in racks of 16, blocks of 4 racks, zones of 4 blocks; part of the multi-node
                           jobs ask a required or preferred level; each configuration also runs with topology
                           ignored; ends with a sim-topology line
        --pod-startup      seconds from a job's minimum placed to its pods running (5)
        --pod-termination  seconds an evicted pod keeps its room (5)
        --deadlock-after   seconds a job may hold part of its gang, when it has no waitTime, before it counts as a
                           gang deadlock (600)
        --drain            seconds after the last submission the run goes on for jobs to end (172800)
        --warmup           the fraction of the submission period, from its start, left out of the measurement
                           window while the cluster fills up (0.5); the window ends at the last submission
        --threads          configurations simulated at once (default: as many as there are processors, at most
                           the configurations)
      """;

  static SimulateOptions parse(String[] args, Path projectRoot) {
    Path trace = null;
    Path queues = null;
    boolean tenants = false;
    boolean topology = false;
    Integer jobs = null;
    Integer nodes = null;
    Double load = null;
    long seed = 1;
    List<Path> configs = new ArrayList<>();
    boolean baseline = true;
    Path out = Path.of("simulation-report");
    Path writeTrace = null;
    Path writeQueues = null;
    int threads = 0;
    double warmup = 0.5;
    SimulationSettings defaults = SimulationSettings.DEFAULTS;
    Duration period = defaults.period();
    Duration startup = defaults.podStartup();
    Duration termination = defaults.podTermination();
    Duration deadlockAfter = defaults.deadlockAfter();
    Duration drain = defaults.drainLimit();
    boolean cycleOnChange = defaults.cycleOnChange();
    Duration minCycleInterval = defaults.minCycleInterval();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      switch (flag) {
        case "--trace" -> trace = Path.of(value(args, ++i, flag));
        case "--queues" -> queues = Path.of(value(args, ++i, flag));
        case "--tenants" -> tenants = true;
        case "--write-queues" -> writeQueues = Path.of(value(args, ++i, flag));
        case "--jobs" -> jobs = integer(args, ++i, flag);
        case "--nodes" -> nodes = integer(args, ++i, flag);
        case "--load" -> load = decimal(args, ++i, flag);
        case "--seed" -> seed = Long.parseLong(value(args, ++i, flag));
        case "--config" -> configs.add(Path.of(value(args, ++i, flag)));
        case "--no-baseline" -> baseline = false;
        case "--out" -> out = Path.of(value(args, ++i, flag));
        case "--write-trace" -> writeTrace = Path.of(value(args, ++i, flag));
        case "--threads" -> threads = integer(args, ++i, flag);
        case "--warmup" -> warmup = decimal(args, ++i, flag);
        case "--period" -> period = seconds(args, ++i, flag);
        case "--pod-startup" -> startup = seconds(args, ++i, flag);
        case "--pod-termination" -> termination = seconds(args, ++i, flag);
        case "--deadlock-after" -> deadlockAfter = seconds(args, ++i, flag);
        case "--drain" -> drain = seconds(args, ++i, flag);
        case "--min-cycle-interval" -> {
          minCycleInterval = seconds(args, ++i, flag);
          if (minCycleInterval.isZero()) {
            throw new IllegalArgumentException(
                "--min-cycle-interval: must be more than 0 seconds (a cycle takes some time)");
          }
        }
        case "--periodic-cycles" -> cycleOnChange = false;
        case "--topology" -> topology = true;
        default -> throw new IllegalArgumentException("unknown option " + flag);
      }
    }
    if (tenants && trace != null) {
      throw new IllegalArgumentException(
          "--tenants generates a trace; give the queue tree of your own with --queues instead");
    }
    if (queues != null && trace == null) {
      throw new IllegalArgumentException("--queues goes with --trace");
    }
    if (jobs == null) {
      jobs = tenants ? 2_000 : 10_000;
    }
    if (nodes == null) {
      nodes = tenants ? 100 : 1_000;
    }
    if (load == null) {
      load = tenants ? 1.3 : 0.9;
    }
    if (configs.isEmpty() && !tenants) {
      configs.add(projectRoot.resolve("config/scheduler/default.yaml"));
    }
    if (!(warmup >= 0) || warmup >= 1) {
      throw new IllegalArgumentException("--warmup must be within [0, 1), was " + warmup);
    }
    if (jobs < 1 || nodes < 1) {
      throw new IllegalArgumentException("--jobs and --nodes must be >= 1");
    }
    return new SimulateOptions(
        trace,
        queues,
        tenants,
        jobs,
        nodes,
        load,
        seed,
        List.copyOf(configs),
        baseline,
        out,
        writeTrace,
        writeQueues,
        threads,
        warmup,
        new SimulationSettings(
            period, startup, termination, deadlockAfter, drain, cycleOnChange, minCycleInterval),
        topology);
  }

  private static String value(String[] args, int index, String flag) {
    if (index >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[index];
  }

  private static int integer(String[] args, int index, String flag) {
    String value = value(args, index, flag);
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + ": '" + value + "' is not a whole number");
    }
  }

  private static double decimal(String[] args, int index, String flag) {
    String value = value(args, index, flag);
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + ": '" + value + "' is not a number");
    }
  }

  private static Duration seconds(String[] args, int index, String flag) {
    double value = decimal(args, index, flag);
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(flag + ": must be a number of seconds >= 0");
    }
    return Duration.ofMillis(Math.round(value * 1000));
  }
}
