package io.tyrl.arranger.simulator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

  private static final Path ROOT =
      Path.of(System.getProperty("arranger.projectRoot", "..")).toAbsolutePath();

  @Test
  void aGeneratedTraceAgainstTheBaselineEndsWithTheSummaryLine(@TempDir Path out) {
    String printed =
        run(
            "--jobs",
            "40",
            "--nodes",
            "4",
            "--seed",
            "2",
            "--out",
            out.toString(),
            "--write-trace",
            out.resolve("trace.csv").toString());

    List<String> lines = printed.lines().toList();
    assertThat(lines.get(lines.size() - 1))
        .matches(
            "sim jobs=40 nodes=4 load=0\\.9 gpu-alloc=\\d+\\.\\d% greedy-bound=\\d+\\.\\d%"
                + " deadlocks=\\d+ share-dev=\\d+\\.\\d% p95-wait-s=\\d+\\.\\d baseline-p95-wait-s=\\d+\\.\\d report=.*report\\.html");
    assertThat(printed)
        .contains("sim-perf configuration=default jobs=40 nodes=4")
        .contains("sim-perf configuration=volcano-like")
        .contains("sim-targets configuration=default");
    assertThat(out.resolve("report.html")).isRegularFile();
    assertThat(out.resolve("series.csv")).isRegularFile();
    assertThat(out.resolve("jobs.csv")).isRegularFile();
    assertThat(out.resolve("trace.csv")).isRegularFile();
  }

  @Test
  void anImportedTraceIsReplayedWithoutItsBadRows(@TempDir Path out) throws Exception {
    Path trace = out.resolve("mine.csv");
    Files.writeString(
        trace,
        """
        submit_s,name,queue,leader_cpu,leader_memory,leader_gpu,worker_cpu,worker_memory,workers,min_workers,duration_s
        0,a,team,8,64Gi,1,16,32Gi,4,2,600
        5,b,team,8,64Gi,lots,16,32Gi,4,2,600
        9,c,team,8,64Gi,8,16,32Gi,2,1,300
        """);

    String printed =
        run(
            "--trace",
            trace.toString(),
            "--nodes",
            "2",
            "--no-baseline",
            "--out",
            out.toString(),
            "--warmup",
            "0");

    assertThat(printed).contains("2 jobs").endsWith("\n");
    assertThat(printed.lines().reduce((first, second) -> second).orElseThrow())
        .startsWith("sim jobs=2 nodes=2 load=")
        .contains("baseline-p95-wait-s=- ");
  }

  @Test
  void theMultiTeamTraceEndsWithTheTenantLineAndItsTreeReplaysFromCsv(@TempDir Path out) {
    String printed =
        run(
            "--tenants",
            "--jobs",
            "60",
            "--nodes",
            "4",
            "--out",
            out.toString(),
            "--write-trace",
            out.resolve("trace.csv").toString(),
            "--write-queues",
            out.resolve("queues.csv").toString());

    List<String> lines = printed.lines().toList();
    assertThat(lines.get(lines.size() - 1))
        .matches(
            "sim-tenants queues=10 levels=2 load=1\\.3 guarantee-violations=\\d+"
                + " share-dev-max=\\d+\\.\\d% core-evictions=\\d+ surplus-evictions=\\d+"
                + " baseline-share-dev-max=\\d+\\.\\d%");
    assertThat(printed)
        .contains("sim-perf configuration=default jobs=60 nodes=4")
        .contains("sim-perf configuration=volcano-like")
        .containsPattern("\\ndefault +2 +7 ")
        .containsPattern("\\nvolcano-like +1 +3 ")
        .contains("sim-tenants-targets configuration=default");

    String replayed =
        run(
            "--trace",
            out.resolve("trace.csv").toString(),
            "--queues",
            out.resolve("queues.csv").toString(),
            "--nodes",
            "4",
            "--out",
            out.resolve("again").toString());
    assertThat(replayed.lines().reduce((first, second) -> second).orElseThrow())
        .startsWith("sim-tenants queues=10 levels=2 load=");
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> SimulateOptions.parse(new String[] {"--jobs", "many"}, ROOT))
        .hasMessage("--jobs: 'many' is not a whole number");
    assertThatThrownBy(() -> SimulateOptions.parse(new String[] {"--colour"}, ROOT))
        .hasMessage("unknown option --colour");
    assertThatThrownBy(() -> SimulateOptions.parse(new String[] {"--warmup", "1"}, ROOT))
        .hasMessage("--warmup must be within [0, 1), was 1.0");
    assertThatThrownBy(() -> SimulateOptions.parse(new String[] {"--queues", "tree.csv"}, ROOT))
        .hasMessage("--queues goes with --trace");
    assertThatThrownBy(
            () -> SimulateOptions.parse(new String[] {"--min-cycle-interval", "0"}, ROOT))
        .hasMessageStartingWith("--min-cycle-interval: must be more than 0 seconds");
  }

  @Test
  void pacingOptionsReachTheSettings() {
    SimulateOptions options =
        SimulateOptions.parse(
            new String[] {"--min-cycle-interval", "0.25", "--periodic-cycles"}, ROOT);

    assertThat(options.settings().minCycleInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(options.settings().cycleOnChange()).isFalse();
    assertThat(SimulateOptions.parse(new String[0], ROOT).settings().cycleOnChange()).isTrue();
  }

  private static String run(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SimulateCommand.run(
        SimulateOptions.parse(args, ROOT), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
