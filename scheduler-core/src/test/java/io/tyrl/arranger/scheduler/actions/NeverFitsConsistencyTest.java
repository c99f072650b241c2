package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A job that can never fit the cluster's nodes gets one verdict, NeverFits, whatever it asks too
 * much of: a GPU job in a cluster without GPU nodes no longer waits as NotEnqueued forever while
 * the same job asking for too much cpu fails. The message names the resource.
 */
class NeverFitsConsistencyTest {

  private static final List<NodeInfo> CPU_NODES =
      List.of(
          node("n1").cpu("8").memory("32Gi").build(), node("n2").cpu("8").memory("32Gi").build());

  static Stream<Arguments> configurations() {
    return Stream.of(
        Arguments.of("default (enqueue, proportion, overcommit)", Fixtures.defaultConfiguration()),
        Arguments.of(
            "with preemption (no overcommit)",
            Fixtures.configuration(DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML)),
        Arguments.of(
            "allocate alone",
            Fixtures.configuration(
                """
            actions: "allocate"
            tiers:
              - plugins:
                  - name: priority
                  - name: gang
              - plugins:
                  - name: predicates
                  - name: proportion
            """)));
  }

  private static JobDecision decide(
      SchedulerConfiguration configuration, List<NodeInfo> nodes, JobInfo job) {
    return Fixtures.scheduler()
        .runCycle(new Snapshot(nodes, List.of(job), List.of()), configuration, T0)
        .decision(job.key());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void aGpuJobWithoutAnyGpuNodeNeverFitsAndTheMessageNamesTheResource(
      String name, SchedulerConfiguration configuration) {
    JobDecision decision =
        decide(
            configuration,
            CPU_NODES,
            job("gpu")
                .leader("cpu", "1", "nvidia.com/gpu", "1")
                .workers("actor", 1, "cpu", "1")
                .build());

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(decision.message())
        .isEqualTo("pod learner requests nvidia.com/gpu 1, and no node has nvidia.com/gpu");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void theSameJobAskingForTooMuchCpuGetsTheSameVerdict(
      String name, SchedulerConfiguration configuration) {
    JobDecision decision =
        decide(
            configuration,
            CPU_NODES,
            job("cpu").leader("cpu", "64").workers("actor", 1, "cpu", "1").build());

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(decision.message()).contains("cpu 64 > 8");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void workersTheMinimumCanSpareMayAskForWhatNoNodeHas(
      String name, SchedulerConfiguration configuration) {
    JobDecision decision =
        decide(
            configuration,
            CPU_NODES,
            job("spare")
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("actor", 1, "cpu", "1")
                .workers("gpu-actor", 1, "cpu", "1", "nvidia.com/gpu", "1")
                .build());

    assertThat(decision.reason()).as(decision.message()).isNotEqualTo(ReasonCode.NEVER_FITS);
    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void aWorkerThatNeverFitsIsTheVerdictEvenWhenTheLeaderOnlyLacksRoomNow(
      String name, SchedulerConfiguration configuration) {
    List<NodeInfo> nodes = List.of(node("n").cpu("8").memory("32Gi").build());
    JobInfo busy =
        job("busy").queue("a").minWorkers(0).leader("cpu", "8").placed("busy-learner", "n").build();
    JobInfo late =
        job("late")
            .queue("b")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "64")
            .build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    nodes,
                    List.of(busy, late),
                    List.of(Fixtures.queue("a").build(), Fixtures.queue("b").build())),
                configuration,
                T0)
            .decision(late.key());

    assertThat(decision.reason()).as(decision.message()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(decision.message()).contains("pod actor").contains("cpu 64 > 8");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void aClusterWithoutNodesFailsNothing(String name, SchedulerConfiguration configuration) {
    JobDecision decision =
        decide(
            configuration,
            List.of(),
            job("early").minWorkers(0).leader("cpu", "1", "nvidia.com/gpu", "1").build());

    assertThat(decision.state())
        .as(decision.message())
        .isNotEqualTo(ScheduleState.SCHEDULED_FAILED);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void aGpuJobWithGpuNodesTooSmallStillNeverFits(
      String name, SchedulerConfiguration configuration) {
    List<NodeInfo> nodes = List.of(node("g1").cpu("8").memory("32Gi").gpu(2).build());
    JobDecision decision =
        decide(
            configuration,
            nodes,
            job("greedy").minWorkers(0).leader("nvidia.com/gpu", "4").build());

    assertThat(decision.reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(decision.message()).contains("nvidia.com/gpu 4 > 2");
  }
}
