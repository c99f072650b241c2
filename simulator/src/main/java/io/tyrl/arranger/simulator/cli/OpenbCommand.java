package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.engine.OpenbBestFit;
import io.tyrl.arranger.simulator.engine.OpenbReplay;
import io.tyrl.arranger.simulator.report.OpenbReport;
import io.tyrl.arranger.simulator.trace.OpenbTrace;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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

/**
 * {@code scripts/simulate.sh --openb}: the FGD paper's experiment on the openb trace (see {@link
 * OpenbReplay}), each configuration over the seeds, printed beside the paper's published policies,
 * drawn as curves in the report, and summed up in one line.
 */
public final class OpenbCommand {

  static final String USAGE =
      """
      scripts/simulate.sh --openb [options]   the FGD paper's experiment on the openb GPU trace
        --trace FILE        a pod list of the trace (default: the default trace, replayed from its
                            published sequences); another variant is resampled by the same recipe
        --data DIR          where the trace lives (default ../shared/data/openb)
        --config FILE       a scheduler configuration to measure (repeatable), beside the built-in
                            default; without one, the replay's own: gpu-fragment-only
                            (simulator/src/main/resources/openb/)
        --seeds A-B         the seeds (default 42-51)
        --no-protocol-check skip the BestFit replay that proves the protocol
        --threads N         seeds replayed at once (default 2)
        --out DIR           report.html and openb.csv (default simulation-report/openb)
      """;

  /** The published BestFit mean on the default trace at 100 % arrived, for the protocol check. */
  static final double PUBLISHED_BESTFIT_DEFAULT_100 = 92.86;

  /** How far a replay of the published sequences may be from the published BestFit mean. */
  static final double PROTOCOL_TOLERANCE = 0.05;

  record Options(
      Path data,
      Path trace,
      List<Path> configs,
      int firstSeed,
      int lastSeed,
      boolean protocolCheck,
      int threads,
      Path out) {

    static Options parse(String[] args, Path root) {
      Path data = root.resolve("../shared/data/openb").normalize();
      Path trace = null;
      List<Path> configs = new ArrayList<>();
      int first = 42;
      int last = 51;
      boolean check = true;
      int threads = 2;
      Path out = root.resolve("simulation-report/openb");
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        switch (arg) {
          case "--openb" -> {}
          case "--trace" -> trace = Path.of(value(args, ++i, arg));
          case "--data" -> data = Path.of(value(args, ++i, arg));
          case "--config" -> configs.add(Path.of(value(args, ++i, arg)));
          case "--seeds" -> {
            String[] range = value(args, ++i, arg).split("-");
            try {
              first = Integer.parseInt(range[0]);
              last = range.length > 1 ? Integer.parseInt(range[1]) : first;
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("--seeds: expected A-B, got " + args[i]);
            }
          }
          case "--no-protocol-check" -> check = false;
          case "--threads" -> threads = Integer.parseInt(value(args, ++i, arg));
          case "--out" -> out = Path.of(value(args, ++i, arg));
          default -> throw new IllegalArgumentException("unknown option " + arg);
        }
      }
      return new Options(data, trace, configs, first, last, check, threads, out);
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }
  }

  /** One configuration's curves over the seeds. */
  record Measured(String name, List<OpenbReplay.Curve> curves) {
    double meanAt(int arrived) {
      return curves.stream().mapToDouble(curve -> rounded(curve.at(arrived))).average().orElse(0);
    }

    double sdAt(int arrived) {
      double mean = meanAt(arrived);
      double sum = 0;
      for (OpenbReplay.Curve curve : curves) {
        double d = rounded(curve.at(arrived)) - mean;
        sum += d * d;
      }
      return curves.size() < 2 ? 0 : Math.sqrt(sum / (curves.size() - 1));
    }

    /** The published figures are per-seed ratios rounded to two decimals, then averaged. */
    private static double rounded(double value) {
      return Math.round(value * 100) / 100.0;
    }
  }

  /** The replay's own configurations, measured when no --config is given. */
  static final List<String> BUILT_IN_CONFIGURATIONS = List.of("gpu-fragment-only");

  private OpenbCommand() {}

  private static String resource(String name) {
    try (var in = OpenbCommand.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  public static void main(String[] args, Path root) {
    Options options;
    try {
      options = Options.parse(args, root);
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    try {
      run(options, System.out);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      System.err.println("simulate: " + e.getMessage());
      System.exit(1);
    }
  }

  static List<Measured> run(Options options, PrintStream out) {
    Scheduler scheduler =
        new Scheduler(
            BuiltInPlugins.registry().register(OpenbBestFit.descriptor()),
            BuiltInActions.registry(),
            CycleListener.NONE);
    SchedulerConfigurationParser parser = new SchedulerConfigurationParser(scheduler.vocabulary());
    List<OpenbTrace.Node> nodes =
        OpenbTrace.nodes(options.data().resolve("openb_node_list_gpu_node.csv"));
    Path podList =
        options.trace() != null
            ? options.trace()
            : options.data().resolve("openb_pod_list_default.csv");
    String workload = workloadName(podList);
    String traceName = workload.replaceFirst("^openb_pod_list_", "");
    List<OpenbTrace.Pod> allPods = OpenbTrace.pods(podList);
    long capacityMilli = nodes.stream().mapToLong(node -> node.gpus() * 1000L).sum();

    List<Integer> seeds = new ArrayList<>();
    for (int seed = options.firstSeed(); seed <= options.lastSeed(); seed++) {
      seeds.add(seed);
    }
    Map<Integer, List<OpenbTrace.Pod>> sequences = new LinkedHashMap<>();
    Map<Integer, Map<String, Integer>> ranks = new LinkedHashMap<>();
    boolean published = true;
    for (int seed : seeds) {
      Path sequence =
          options.data().resolve("sequences/" + workload + "_seed" + seed + "_pods.csv");
      Path tieRanks =
          options.data().resolve("sequences/" + workload + "_seed" + seed + "_nodes.csv");
      if (Files.exists(sequence) && Files.exists(tieRanks)) {
        sequences.put(seed, OpenbTrace.pods(sequence));
        ranks.put(seed, OpenbTrace.tieRanks(tieRanks));
      } else {
        published = false;
        sequences.put(seed, OpenbTrace.resampled(allPods, capacityMilli, 130, seed));
        ranks.put(seed, Map.of());
      }
    }
    out.printf(
        Locale.ROOT,
        "openb trace=%s nodes=%d gpus=%d pods=%d seeds=%d-%d workloads=%s%n",
        traceName,
        nodes.size(),
        capacityMilli / 1000,
        allPods.size(),
        options.firstSeed(),
        options.lastSeed(),
        published
            ? "the published sequences"
            : "resampled by the paper's recipe (not the published run's)");

    Map<String, SchedulerConfiguration> configurations = new LinkedHashMap<>();
    if (options.protocolCheck()) {
      configurations.put(
          "bestfit-protocol",
          parser.parse(
              "actions: \"allocate\"\ntiers:\n  - plugins:\n      - name: predicates\n      - name: "
                  + OpenbBestFit.NAME
                  + "\n"));
    }
    configurations.put(
        "arranger-default", DefaultSchedulerConfiguration.parse(scheduler.vocabulary()));
    for (Path config : options.configs()) {
      try {
        configurations.put(
            config.getFileName().toString().replaceFirst("\\.ya?ml$", ""),
            parser.parse(Files.readString(config)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + config, e);
      }
    }
    if (options.configs().isEmpty()) {
      for (String name : BUILT_IN_CONFIGURATIONS) {
        configurations.put(name, parser.parse(resource("openb/" + name + ".yaml")));
      }
    }

    List<Measured> measured = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, options.threads()));
    try {
      for (Map.Entry<String, SchedulerConfiguration> configuration : configurations.entrySet()) {
        long start = System.nanoTime();
        List<Future<OpenbReplay.Curve>> futures = new ArrayList<>();
        for (int seed : seeds) {
          futures.add(
              pool.submit(
                  () ->
                      OpenbReplay.replay(
                          scheduler,
                          configuration.getValue(),
                          nodes,
                          ranks.get(seed),
                          sequences.get(seed))));
        }
        List<OpenbReplay.Curve> curves = new ArrayList<>();
        for (Future<OpenbReplay.Curve> future : futures) {
          curves.add(future.get());
        }
        Measured result = new Measured(configuration.getKey(), curves);
        measured.add(result);
        out.printf(
            Locale.ROOT,
            "openb-run config=%s at100=%.2f±%.2f wall-s=%.1f%n",
            result.name(),
            result.meanAt(100),
            result.sdAt(100),
            (System.nanoTime() - start) / 1e9);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a replay failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }

    List<OpenbTrace.PublishedPoint> paper =
        OpenbTrace.published(options.data().resolve("fgd_openb_summary_by_policy.csv")).stream()
            .filter(point -> point.workload().equals(workload))
            .toList();
    printTable(out, measured, paper);
    OpenbReport.write(
        options.out(),
        traceName,
        published
            ? "the published sequences, seeds " + options.firstSeed() + "-" + options.lastSeed()
            : "resampled by the paper's recipe with seeds "
                + options.firstSeed()
                + "-"
                + options.lastSeed()
                + " (not the published run's pods)",
        measured.stream().map(OpenbCommand::series).toList(),
        paperSeries(paper));

    Measured protocol =
        measured.stream().filter(m -> m.name().equals("bestfit-protocol")).findFirst().orElse(null);
    if (protocol != null && published && traceName.equals("default")) {
      double gap = Math.abs(protocol.meanAt(100) - PUBLISHED_BESTFIT_DEFAULT_100);
      out.printf(
          Locale.ROOT,
          "openb-protocol bestfit=%.2f published=%.2f %s%n",
          protocol.meanAt(100),
          PUBLISHED_BESTFIT_DEFAULT_100,
          gap <= PROTOCOL_TOLERANCE ? "reproduced" : "NOT reproduced: the replay is off protocol");
    }
    Measured arrangerDefault =
        measured.stream()
            .filter(m -> m.name().equals("arranger-default"))
            .findFirst()
            .orElseThrow();
    Measured best = arrangerDefault;
    for (Measured m : measured) {
      if (!m.name().equals("bestfit-protocol") && m.meanAt(100) > best.meanAt(100)) {
        best = m;
      }
    }
    out.printf(
        Locale.ROOT,
        "sim-openb trace=%s arrived=100 seeds=%d arranger-default=%.2f arranger-best=%.2f"
            + " best-config=%s fgd=%s bestfit=%s%n",
        traceName,
        seeds.size(),
        arrangerDefault.meanAt(100),
        best.meanAt(100),
        best.name(),
        publishedAt(paper, "FGD", 100),
        publishedAt(paper, "BestFit", 100));
    return measured;
  }

  private static OpenbReport.Series series(Measured measured) {
    int[] arrived = OpenbReplay.ARRIVED_PERCENT;
    double[] means = new double[arrived.length];
    for (int i = 0; i < arrived.length; i++) {
      means[i] = measured.meanAt(arrived[i]);
    }
    return new OpenbReport.Series(measured.name(), arrived, means);
  }

  private static List<OpenbReport.Series> paperSeries(List<OpenbTrace.PublishedPoint> paper) {
    Map<String, Map<Integer, Double>> byPolicy = new LinkedHashMap<>();
    for (OpenbTrace.PublishedPoint point : paper) {
      byPolicy
          .computeIfAbsent(point.policy().replaceFirst("^\\d+-", ""), p -> new LinkedHashMap<>())
          .put(point.arrivedPercent(), point.mean());
    }
    List<OpenbReport.Series> series = new ArrayList<>();
    byPolicy.forEach(
        (policy, points) ->
            series.add(
                new OpenbReport.Series(
                    policy,
                    points.keySet().stream().mapToInt(Integer::intValue).toArray(),
                    points.values().stream().mapToDouble(Double::doubleValue).toArray())));
    return series;
  }

  private static String publishedAt(
      List<OpenbTrace.PublishedPoint> paper, String policy, int arrived) {
    return paper.stream()
        .filter(point -> point.policy().endsWith(policy) && point.arrivedPercent() == arrived)
        .findFirst()
        .map(point -> String.format(Locale.ROOT, "%.2f", point.mean()))
        .orElse("n/a");
  }

  private static void printTable(
      PrintStream out, List<Measured> measured, List<OpenbTrace.PublishedPoint> paper) {
    int[] arrived = OpenbReplay.ARRIVED_PERCENT;
    StringBuilder header =
        new StringBuilder(String.format(Locale.ROOT, "%-28s", "GPU allocation %"));
    for (int a : arrived) {
      header.append(String.format(Locale.ROOT, "%8s", a + "%"));
    }
    out.println(header);
    Map<String, Map<Integer, Double>> published = new LinkedHashMap<>();
    for (OpenbTrace.PublishedPoint point : paper) {
      published
          .computeIfAbsent(
              "paper " + point.policy().replaceFirst("^\\d+-", ""), p -> new LinkedHashMap<>())
          .put(point.arrivedPercent(), point.mean());
    }
    published.forEach(
        (policy, points) -> {
          StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s", policy));
          for (int a : arrived) {
            Double value = points.get(a);
            row.append(value == null ? "       -" : String.format(Locale.ROOT, "%8.2f", value));
          }
          out.println(row);
        });
    for (Measured m : measured) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s", m.name()));
      for (int a : arrived) {
        row.append(String.format(Locale.ROOT, "%8.2f", m.meanAt(a)));
      }
      out.println(row);
    }
  }

  private static String workloadName(Path podList) {
    return podList.getFileName().toString().replaceFirst("\\.csv$", "");
  }
}
