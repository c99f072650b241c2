package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.replay.CycleInput;
import io.tyrl.arranger.scheduler.replay.CycleInputJson;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code scripts/simulate.sh --snapshot FILE [--config A.yaml]...}: one live cycle, dumped by the
 * scheduler ({@code GET /api/v1/cycle-input}), run again through the same core with the
 * configuration it had and with each other one: what each would place, evict, and say differently
 * from what the live cycle decided. No simulated time: the one cycle, at the dumped clock.
 */
final class CycleReplay {

  static final String USAGE =
      """
      usage: simulate.sh --snapshot CYCLE.json [--config SCHEDULER.yaml]...
        --snapshot   a cycle's input as the scheduler dumps it (GET /api/v1/cycle-input, docs/ui.md)
        --config     a configuration to run the same cycle with (repeatable); the dumped one always runs
                     first, and should decide what the live cycle decided
      """;

  /** How many differing jobs are listed per configuration. */
  private static final int DIFFERENCES_SHOWN = 20;

  record Options(Path snapshot, List<Path> configs) {

    static Options parse(String[] args) {
      Path snapshot = null;
      List<Path> configs = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--snapshot" -> snapshot = Path.of(value(args, ++i, "--snapshot"));
          case "--config" -> configs.add(Path.of(value(args, ++i, "--config")));
          default ->
              throw new IllegalArgumentException(
                  "unknown option " + args[i] + " (with --snapshot, only --config)");
        }
      }
      if (snapshot == null) {
        throw new IllegalArgumentException("--snapshot needs a file");
      }
      return new Options(snapshot, List.copyOf(configs));
    }

    private static String value(String[] args, int index, String flag) {
      if (index >= args.length || args[index].startsWith("--")) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      return args[index];
    }
  }

  /** One configuration's run of the cycle. */
  record Run(String name, CycleResult result, List<String> differences) {

    long count(ScheduleState state) {
      return result.decisions().values().stream().filter(d -> d.state() == state).count();
    }
  }

  private CycleReplay() {}

  static List<Run> run(Options options, PrintStream out) {
    CycleInput input = CycleInputJson.read(read(options.snapshot()));
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    SchedulerConfigurationParser parser = new SchedulerConfigurationParser(scheduler.vocabulary());
    List<Run> runs = new ArrayList<>();
    runs.add(
        run(
            scheduler,
            input,
            "as dumped (" + input.configurationOrigin() + ")",
            parser.parse(input.configuration())));
    for (Path config : options.configs()) {
      runs.add(run(scheduler, input, config.toString(), parser.parse(read(config))));
    }
    out.printf(
        Locale.ROOT,
        "cycle of %s: %d jobs, %d nodes, %d queues; the live cycle left %d jobs waiting%n%n",
        input.time(),
        input.snapshot().jobs().size(),
        input.snapshot().nodes().size(),
        input.snapshot().queues().size(),
        input.decisions().values().stream().filter(d -> d.reason() != null).count());
    out.printf(
        Locale.ROOT,
        "%-50s %8s %8s %8s %8s %8s %12s%n",
        "configuration",
        "placed",
        "partly",
        "waiting",
        "failed",
        "evicted",
        "differ-live");
    for (Run run : runs) {
      long victimJobs = run.result().allVictims().stream().map(v -> v.jobKey()).distinct().count();
      out.printf(
          Locale.ROOT,
          "%-50s %8d %8d %8d %8d %8d %12d%n",
          run.name(),
          run.count(ScheduleState.SCHEDULED_SUCCEED),
          run.count(ScheduleState.SCHEDULED_PARTLY),
          run.count(ScheduleState.UNSCHEDULED),
          run.count(ScheduleState.SCHEDULED_FAILED),
          victimJobs,
          run.differences().size());
    }
    for (Run run : runs) {
      if (run.differences().isEmpty()) {
        continue;
      }
      out.printf("%n%s, where it differs from the live cycle:%n", run.name());
      run.differences().stream().limit(DIFFERENCES_SHOWN).forEach(line -> out.println("  " + line));
      if (run.differences().size() > DIFFERENCES_SHOWN) {
        out.printf("  … and %d more%n", run.differences().size() - DIFFERENCES_SHOWN);
      }
    }
    out.printf(
        Locale.ROOT,
        "%nreplay jobs=%d configs=%d same-as-live=%s%n",
        input.snapshot().jobs().size(),
        runs.size(),
        runs.get(0).differences().isEmpty());
    return runs;
  }

  private static Run run(
      Scheduler scheduler,
      CycleInput input,
      String name,
      io.tyrl.arranger.scheduler.conf.SchedulerConfiguration configuration) {
    CycleResult result = scheduler.runCycle(input.snapshot(), configuration, input.time());
    List<String> differences = new ArrayList<>();
    new TreeMap<>(result.decisions())
        .forEach(
            (key, decision) -> {
              JobDecision live = input.decisions().get(key);
              if (live == null
                  || live.state() != decision.state()
                  || live.reason() != decision.reason()
                  || !Objects.equals(live.message(), decision.message())
                  || !live.allocations().equals(decision.allocations())) {
                differences.add(key + ": " + describe(live) + " → " + describe(decision));
              }
            });
    return new Run(name, result, differences);
  }

  private static String describe(JobDecision decision) {
    if (decision == null) {
      return "(not in the live cycle)";
    }
    Map<String, String> placed = decision.allocations();
    String pods = placed.size() + (placed.size() == 1 ? " pod placed" : " pods placed");
    return decision.reason() == null
        ? decision.state().wireName() + ", " + pods
        : decision.state().wireName()
            + ", "
            + pods
            + ", "
            + decision.reason().statusValue()
            + ": "
            + decision.message();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
