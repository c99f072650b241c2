package io.tyrl.arranger.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCsvTest {

  private static final String HEADER =
      "submit_s,name,queue,queue_weight,leader_cpu,leader_memory,leader_gpu,worker_cpu,"
          + "worker_memory,worker_gpu,workers,min_workers,duration_s,gang,wait_time_s,basic_policy";

  @Test
  void readsEveryColumn() {
    CsvImport imported =
        TraceCsv.read(
            List.of(
                HEADER, "12.5,a,research,4,8,64Gi,1,500m,8Gi,,6,2,3600,NonStrict,900,LeaderFirst"));

    assertThat(imported.problems()).isEmpty();
    TraceJob job = imported.trace().jobs().get(0);
    assertThat(job.name()).isEqualTo("a");
    assertThat(job.submitSeconds()).isEqualTo(12.5);
    assertThat(job.queue()).isEqualTo("research");
    assertThat(job.queueWeight()).isEqualTo(4);
    assertThat(job.priority()).isEqualTo(5);
    assertThat(job.leader())
        .isEqualTo(Resource.of("cpu", "8", "memory", "64Gi", "nvidia.com/gpu", "1"));
    assertThat(job.worker()).isEqualTo(Resource.of("cpu", "500m", "memory", "8Gi"));
    assertThat(job.workers()).isEqualTo(6);
    assertThat(job.minWorkers()).isEqualTo(2);
    assertThat(job.duration()).isEqualTo(Duration.ofHours(1));
    assertThat(job.gang()).isEqualTo(GangMode.NON_STRICT);
    assertThat(job.waitTime()).isEqualTo(Duration.ofMinutes(15));
    assertThat(job.basicPolicy()).isEqualTo(BasicPolicy.LEADER_FIRST);
  }

  @Test
  void optionalColumnsTakeTheirDefaults() {
    CsvImport imported =
        TraceCsv.read(
            List.of(
                "name,submit_s,queue,leader_cpu,leader_memory,workers,duration_s",
                "b,0,default,1,1Gi,3,60"));

    TraceJob job = imported.trace().jobs().get(0);
    assertThat(job.queueWeight()).isEqualTo(1);
    assertThat(job.priority()).isEqualTo(5);
    assertThat(job.minWorkers()).isEqualTo(1);
    assertThat(job.worker()).isEqualTo(Resource.EMPTY);
    assertThat(job.gang()).isEqualTo(GangMode.STRICT);
    assertThat(job.waitTime()).isNull();
    assertThat(job.basicPolicy()).isNull();
  }

  @Test
  void aBadRowIsLeftOutNamingItsLineAndColumnAndTheOthersAreRead() {
    CsvImport imported =
        TraceCsv.read(
            List.of(
                "# exported from the audit log",
                HEADER,
                "0,good-1,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,",
                "1,bad-gpu,q,1,1,1Gi,two,1,1Gi,0,2,1,60,Strict,,",
                "2,bad-min,q,1,1,1Gi,0,1,1Gi,0,2,3,60,Strict,,",
                "",
                "3,bad-gang,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Loose,,",
                "4,bad-fields,q,1,1,1Gi",
                "5,good-1,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,",
                "6,bad-weight,q,2,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,",
                "7,bad-time,q,1,1,1Gi,0,1,1Gi,0,2,1,-5,Strict,,",
                "x,bad-submit,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,",
                "9,bad-policy,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,Spread",
                "10,good-2,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,"));

    assertThat(imported.trace().jobs())
        .extracting(TraceJob::name)
        .containsExactly("good-1", "good-2");
    assertThat(imported.problems())
        .extracting(CsvProblem::line, CsvProblem::column)
        .containsExactly(
            tuple(4, "leader_gpu"),
            tuple(5, "min_workers"),
            tuple(7, "gang"),
            tuple(8, ""),
            tuple(9, "name"),
            tuple(10, "queue_weight"),
            tuple(11, "duration_s"),
            tuple(12, "submit_s"),
            tuple(13, "basic_policy"));
    assertThat(imported.problems().get(0).toString())
        .isEqualTo(
            "line 4, column leader_gpu: 'two' is not a quantity (nvidia.com/gpu: invalid quantity 'two': expected"
                + " a number with an optional suffix (m, k, Ki, Mi, Gi, ..., or an exponent such as e3))");
    assertThat(imported.problems().get(1).message()).isEqualTo("3 is outside 0..2");
    assertThat(imported.problems().get(3).message()).isEqualTo("expected 16 fields, found 6");
    assertThat(imported.problems().get(5).message())
        .isEqualTo("queue q has weight 1 in earlier rows, not 2");
    assertThat(imported.problems().get(8).message())
        .isEqualTo(
            "'Spread' is not one of "
                + NodeOrderPlugin.BASIC_POLICIES.stream()
                    .map(BasicPolicy::name)
                    .collect(Collectors.joining(", ")));
  }

  @Test
  void everyPolicyTheSchedulerKnowsIsReadByItsNameInAnyCase() {
    for (BasicPolicy policy : NodeOrderPlugin.BASIC_POLICIES) {
      CsvImport imported =
          TraceCsv.read(
              List.of(
                  HEADER,
                  "0,a,q,1,1,1Gi,0,1,1Gi,0,2,1,60,Strict,,"
                      + policy.name().toLowerCase(Locale.ROOT)));

      assertThat(imported.problems()).isEmpty();
      assertThat(imported.trace().jobs().get(0).basicPolicy()).isEqualTo(policy);
    }
  }

  @Test
  void aHeaderWithoutARequiredColumnOrWithAnUnknownOneRefusesTheFile() {
    assertThatThrownBy(
            () -> TraceCsv.read(List.of("submit_s,name,queue,leader_cpu,workers,duration_s")))
        .hasMessage("line 1: the header lacks the required column(s) leader_memory");
    assertThatThrownBy(() -> TraceCsv.read(List.of(HEADER + ",colour")))
        .hasMessageStartingWith("line 1: unknown column 'colour' in the header");
    assertThatThrownBy(() -> TraceCsv.read(List.of("# nothing else")))
        .hasMessageStartingWith("the trace has no header line");
  }

  @Test
  void aWrittenTraceReadsBackTheSame(@TempDir Path directory) throws Exception {
    Trace trace = TraceGenerator.generate(GeneratorSettings.of(200, 5, 0.9, 20));
    Path file = directory.resolve("trace.csv");

    TraceCsv.write(trace, file);
    CsvImport imported = TraceCsv.read(file);

    assertThat(imported.problems()).isEmpty();
    assertThat(imported.trace()).isEqualTo(trace);
    assertThat(Files.readAllLines(file).get(0)).isEqualTo(String.join(",", TraceCsv.COLUMNS));
  }
}
