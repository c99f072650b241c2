package io.tyrl.arranger.scheduler.replay;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cycle's input written and read back is the same value, and the same cycle run on it decides the
 * same; a file that is not one is refused naming what is wrong.
 */
class CycleInputJsonTest {

  private final Snapshot snapshot =
      new Snapshot(
          List.of(
              node("a").cpu("8").memory("32Gi").gpu(2).label("zone", "z1").build(),
              node("b")
                  .cpu("8")
                  .memory("32Gi")
                  .label("zone", "z2")
                  .taint("dedicated", "vision", TaintEffect.NO_SCHEDULE)
                  .build()),
          List.of(
              job("running")
                  .queue("team-a")
                  .minWorkers(1)
                  .leader("cpu", "2")
                  .workers("actor", 2, "cpu", "1")
                  .running("a", 2)
                  .build(),
              job("gpu")
                  .namespace("vision")
                  .queue("team-b")
                  .priority(7)
                  .minWorkers(0)
                  .leader("cpu", "1", "nvidia.com/gpu", "1")
                  .requiredAffinity(
                      NodeAffinityTerm.of(
                          NodeSelectorRequirement.of("zone", NodeSelectorOperator.IN, "z1")))
                  .waitTime(Duration.ofMinutes(5))
                  .build(),
              job("message \"quoted\" \u00e9\n")
                  .queue("team-a")
                  .minWorkers(0)
                  .leader("cpu", "64")
                  .nodeSelector("zone", "z2")
                  .build()),
          List.of(
              queue("org").guarantee("cpu", "8").build(),
              queue("team-a").parent("org").guarantee("cpu", "4").weight(2).build(),
              queue("team-b").parent("org").preemptMinRuntime(Duration.ofMinutes(10)).build()));

  @Test
  void writtenAndReadBackItIsTheSameInputAndTheSameCycleDecidesTheSame() {
    String yaml = DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML;
    CycleResult live = Fixtures.scheduler().runCycle(snapshot, Fixtures.configuration(yaml), T0);
    CycleInput input = new CycleInput(T0, "a test", yaml, snapshot, live.decisions());

    String json = CycleInputJson.write(input);
    CycleInput read = CycleInputJson.read(json);

    assertThat(read).isEqualTo(input);
    assertThat(json).startsWith("{\"format\":\"" + CycleInputJson.FORMAT + "\"");
    CycleResult replayed =
        Fixtures.scheduler()
            .runCycle(read.snapshot(), Fixtures.configuration(read.configuration()), read.time());
    assertThat(replayed.decisions()).isEqualTo(live.decisions());
    assertThat(live.decisions().values()).anySatisfy(d -> assertThat(d.reason()).isNotNull());
  }

  @Test
  void theQueuesPastUsageIsWrittenAndReadBackWithTheSnapshot() {
    DecayedUsage usage =
        new DecayedUsage(
            T0,
            List.of(
                new DecayedUsage.Slot(
                    T0.minusSeconds(3600),
                    new java.util.TreeMap<>(
                        java.util.Map.of("cpu", 7200.5, "nvidia.com/gpu", 10.0)))));
    Snapshot withUsage =
        snapshot.withUsage(
            java.util.Map.of("team-a", new QueueUsage(usage, java.util.Map.of("default", usage))));
    CycleInput input =
        new CycleInput(T0, "a test", DefaultSchedulerConfiguration.YAML, withUsage, null);

    CycleInput read = CycleInputJson.read(CycleInputJson.write(input));

    assertThat(read.snapshot().usage()).isEqualTo(withUsage.usage());
    // A file written before usage existed reads as a snapshot without history.
    String withoutUsage =
        CycleInputJson.write(new CycleInput(T0, "a test", "actions: allocate", snapshot, null))
            .replace(",\"usage\":{}", "");
    assertThat(withoutUsage).doesNotContain("\"usage\"");
    assertThat(CycleInputJson.read(withoutUsage).snapshot().usage()).isEmpty();
  }

  @Test
  void aFileOfAnotherFormatOrAValueThatDoesNotFitIsRefusedNamingIt() {
    assertThatThrownBy(() -> CycleInputJson.read("{\"format\": \"something-else\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("format: expected");
    String json =
        CycleInputJson.write(new CycleInput(T0, "a test", "actions: allocate", snapshot, null));
    String broken = json.replaceFirst("\"priority\":7", "\"priority\":\"high\"");
    assertThat(broken).isNotEqualTo(json);
    assertThatThrownBy(() -> CycleInputJson.read(broken))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("snapshot.jobs[1].priority: expected int");
  }
}
