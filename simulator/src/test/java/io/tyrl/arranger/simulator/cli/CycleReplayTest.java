package io.tyrl.arranger.simulator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.replay.CycleInput;
import io.tyrl.arranger.scheduler.replay.CycleInputJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dumped cycle run again: with the configuration it had, it decides what the live cycle did; with
 * another, the table and the differences say what would change.
 */
class CycleReplayTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  @TempDir Path dir;

  @Test
  void theDumpedConfigurationDecidesAsLiveAndAnotherSaysWhatChanges() throws Exception {
    // One 4-cpu node; a low-priority job created first, a high-priority one after: a FIFO-like
    // order places the first, priority order the second.
    Snapshot snapshot =
        new Snapshot(
            List.of(
                new NodeInfo(
                    "n",
                    Map.of(),
                    List.of(),
                    Resource.of("cpu", "4", "memory", "8Gi", "pods", "110"),
                    Resource.EMPTY,
                    Resource.EMPTY,
                    true,
                    false,
                    0)),
            List.of(job("early", 1, NOW.minusSeconds(60)), job("urgent", 9, NOW.minusSeconds(10))),
            List.of(QueueInfo.of("default", 1)));
    String withPriority = DefaultSchedulerConfiguration.YAML;
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    CycleResult live =
        scheduler.runCycle(
            snapshot,
            new SchedulerConfigurationParser(scheduler.vocabulary()).parse(withPriority),
            NOW);
    Path dump = dir.resolve("cycle.json");
    Files.writeString(
        dump,
        CycleInputJson.write(
            new CycleInput(NOW, "a test", withPriority, snapshot, live.decisions())));
    Path withoutPriority = dir.resolve("no-priority.yaml");
    Files.writeString(
        withoutPriority,
        """
        actions: "enqueue, allocate"
        tiers:
          - plugins:
              - name: gang
              - name: predicates
        """);

    ByteArrayOutputStream text = new ByteArrayOutputStream();
    List<CycleReplay.Run> runs =
        CycleReplay.run(
            CycleReplay.Options.parse(
                new String[] {
                  "--snapshot", dump.toString(), "--config", withoutPriority.toString()
                }),
            new PrintStream(text, true, StandardCharsets.UTF_8));

    assertThat(runs.get(0).result().decisions()).isEqualTo(live.decisions());
    assertThat(runs.get(0).differences()).isEmpty();
    assertThat(live.decision("default/urgent").reasonIfAny()).isEmpty();
    assertThat(runs.get(1).result().decision("default/early").reasonIfAny()).isEmpty();
    assertThat(runs.get(1).differences())
        .hasSize(2)
        .anySatisfy(line -> assertThat(line).startsWith("default/urgent: ScheduledSucceed"));
    String output = text.toString(StandardCharsets.UTF_8);
    assertThat(output)
        .contains("as dumped (a test)", withoutPriority.toString(), "where it differs")
        .endsWith("replay jobs=2 configs=2 same-as-live=true\n");
  }

  @Test
  void optionsOtherThanConfigAreRefusedNamingThem() {
    assertThatThrownBy(
            () -> CycleReplay.Options.parse(new String[] {"--snapshot", "x.json", "--jobs", "3"}))
        .hasMessageContaining("unknown option --jobs");
    assertThatThrownBy(() -> CycleReplay.Options.parse(new String[] {"--config", "a.yaml"}))
        .hasMessageContaining("--snapshot needs a file");
  }

  private static JobInfo job(String name, int priority, Instant created) {
    return JobInfo.builder("default", name)
        .uid(name)
        .queue("default")
        .priority(priority)
        .creationTime(created)
        .minWorkersNum(0)
        .tasks(List.of(TaskInfo.leader(name, "learner", Resource.of("cpu", "4"))))
        .build();
  }
}
