package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node's ledger, per resource: allocatable, used, releasing, pipelined, and the fit rules built
 * on them. The node below holds a foreign pod (2Gi memory, cpu over-committed by 1), a victim being
 * released (1 cpu, 1Gi, 2 GPUs) and a pipelined preemptor waiting for 3 GPUs; each resource has
 * other numbers, so a rule that reads the wrong resource or the wrong vector shows.
 */
class NodeStateTest {

  private static final long GI = 1024L * 1024 * 1024;

  private final Session session =
      Fixtures.scheduler()
          .openSession(
              new Snapshot(
                  List.of(
                      node("n")
                          .cpu("8")
                          .memory("16Gi")
                          .gpu(4)
                          .pods(10)
                          .used("cpu", "8")
                          .used("memory", "2Gi")
                          .build(),
                      node("quiet")
                          .cpu("8")
                          .memory("16Gi")
                          .gpu(4)
                          .pods(10)
                          .used("memory", "2Gi")
                          .build()),
                  List.of(
                      job("victim")
                          .minWorkers(0)
                          .leader("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "2")
                          .releasing("victim-learner", "n")
                          .build(),
                      job("preemptor")
                          .minWorkers(0)
                          .leader("cpu", "0", "nvidia.com/gpu", "3")
                          .build(),
                      job("probe")
                          .minWorkers(0)
                          .leader("cpu", "1")
                          .workers("gpu", 2, "nvidia.com/gpu", "1")
                          .workers("gpus", 1, "nvidia.com/gpu", "2")
                          .workers("memory", 1, "memory", "14Gi")
                          .workers("both", 1, "cpu", "100", "memory", "14Gi")
                          .workers("small-memory", 1, "memory", "1Gi")
                          .build()),
                  List.of()),
              Fixtures.defaultConfiguration(),
              T0);
  private final NodeState node = session.node("n").orElseThrow();
  private final NodeState quiet = session.node("quiet").orElseThrow();
  private final int gpu = session.dimensions().indexOf(Resource.GPU);

  private TaskState probe(String pod) {
    return session.job("default/probe").orElseThrow().tasks().stream()
        .filter(t -> t.podName().equals(pod))
        .findFirst()
        .orElseThrow();
  }

  private void pipelinePreemptor() {
    Statement statement = session.newStatement();
    statement.pipeline(session.job("default/preemptor").orElseThrow().leader(), node);
    statement.commit();
  }

  @Test
  void eachResourceKeepsItsOwnAllocatableUsedReleasingAndPipelined() {
    pipelinePreemptor();

    assertThat(node.allocatable(gpu)).isEqualTo(4000);
    assertThat(node.used(gpu)).isEqualTo(2000);
    assertThat(node.idle(gpu)).isEqualTo(2000);
    assertThat(node.releasing(gpu)).isEqualTo(2000);
    assertThat(node.pipelined(gpu)).isEqualTo(3000);
    assertThat(node.futureIdle(gpu))
        .as("4 - 2 used + 2 releasing - 3 promised, in milli-GPU")
        .isEqualTo(1000);

    assertThat(node.allocatable(ResourceDimensions.MEMORY)).isEqualTo(16 * GI);
    assertThat(node.used(ResourceDimensions.MEMORY)).isEqualTo(3 * GI);
    assertThat(node.releasing(ResourceDimensions.MEMORY)).isEqualTo(GI);
    assertThat(node.pipelined(ResourceDimensions.MEMORY)).isZero();
    assertThat(node.futureIdle(ResourceDimensions.MEMORY)).isEqualTo(14 * GI);

    assertThat(node.idle(ResourceDimensions.CPU))
        .as("over-committed by the foreign pod")
        .isEqualTo(-1000);
    assertThat(node.used(ResourceDimensions.PODS)).isEqualTo(1);
    assertThat(node.releasing(ResourceDimensions.PODS)).isEqualTo(1);
    assertThat(node.pipelined(ResourceDimensions.PODS)).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // pod,             first insufficient, all insufficient, fits what will be idle
    "probe-gpu-0,       -,                  -,                true",
    "probe-gpus-0,      nvidia.com/gpu,     nvidia.com/gpu,   false",
    "probe-memory-0,    memory,             memory,           true",
    "probe-both-0,      cpu,                cpu memory,       false",
    "probe-small-memory-0, -,               -,                true"
  })
  void aPodFitsInWhatIsIdleLessWhatPipelinedPodsArePromisedBeyondTheReleases(
      String pod, String first, String all, boolean fitsFuture) {
    pipelinePreemptor();
    TaskState task = probe(pod);

    int firstDimension = node.firstInsufficientDimension(task);
    assertThat(firstDimension == -1 ? "-" : session.dimensions().name(firstDimension))
        .isEqualTo(first);
    assertThat(names(node.insufficientDimensions(task))).isEqualTo(all);
    assertThat(node.fitsFutureIdle(task)).isEqualTo(fitsFuture);
  }

  @Test
  void withoutPipelinedClaimsAPodFitsExactlyWhatIsIdle() {
    // gpu idle 2, releasing 2, nothing promised: 2 GPUs fit now, and 4 once the victim is gone.
    assertThat(node.firstInsufficientDimension(probe("probe-gpus-0"))).isEqualTo(-1);
    assertThat(node.insufficientDimensions(probe("probe-gpus-0"))).isZero();
    assertThat(node.futureIdle(gpu)).isEqualTo(4000);
  }

  @Test
  void aNodeIsReleasingOnlyWhileSomethingOnItIs() {
    assertThat(node.hasReleasing()).isTrue();
    assertThat(quiet.hasReleasing()).as("used, nothing releasing").isFalse();
  }

  @Test
  void idleBelowComparesEachResourceWithItsOwnFloorAndIgnoresFloorsOfZero() {
    long[] floor = new long[session.dimensions().size()];
    assertThat(node.idleBelow(floor)).as("cpu over-committed but no task asks cpu").isFalse();

    floor[gpu] = 2000;
    assertThat(node.idleBelow(floor)).as("2 GPUs idle, 2 asked").isFalse();
    floor[gpu] = 3000;
    assertThat(node.idleBelow(floor)).isTrue();
    floor[gpu] = 0;
    floor[ResourceDimensions.MEMORY] = 13 * GI;
    assertThat(node.idleBelow(floor)).as("13Gi idle").isFalse();
    floor[ResourceDimensions.MEMORY] = 13 * GI + 1;
    assertThat(node.idleBelow(floor)).isTrue();
  }

  private String names(long bits) {
    StringBuilder names = new StringBuilder();
    for (int d = 0; d < session.dimensions().size(); d++) {
      if ((bits & (1L << d)) != 0) {
        names.append(names.length() > 0 ? " " : "").append(session.dimensions().name(d));
      }
    }
    return names.length() == 0 ? "-" : names.toString();
  }
}
