package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Elastic jobs under allocate: the gang minimum is placed all-or-nothing, then one pod at a time
 * with queues and jobs ordered again by share after each pod, never past a queue's capability.
 * Multi-cycle cases run the core on the snapshot the previous cycle produced (placed pods bound,
 * jobs started by the controller), so convergence is checked, not assumed.
 */
class ElasticAllocationTest {

  private static final String GPU = Resource.GPU;

  /** Two nodes of 8 GPUs: 16 in all. */
  private static List<NodeInfo> sixteenGpus() {
    return List.of(
        node("g1").cpu("64").memory("256Gi").gpu(8).build(),
        node("g2").cpu("64").memory("256Gi").gpu(8).build());
  }

  /** A leader without GPU and 16 one-GPU workers, one of them in the minimum. */
  private static JobInfo elasticGpuJob(String name, String queue, int createdSecond) {
    return job(name)
        .queue(queue)
        .created(T0.plusSeconds(createdSecond))
        .minWorkers(1)
        .leader("cpu", "1")
        .workers("actor", 16, "cpu", "1", GPU, "1")
        .build();
  }

  private static Map<String, Long> gpusByQueue(Snapshot snapshot, CycleResult result) {
    return new LinkedHashMap<>(DecisionChecks.wholeGpusByQueue(snapshot, result));
  }

  static Stream<Arguments> configurations() {
    return Stream.of(
        Arguments.of("enqueue, reclaim, allocate, backfill", Fixtures.defaultConfiguration()),
        Arguments.of(
            "enqueue, reclaim, preempt, allocate, backfill", Fixtures.preemptingConfiguration()));
  }

  /**
   * Elastic jobs are shared by weight, pod by pod: weights 3 and 1, one elastic GPU job each, 16
   * GPUs. The weight-1 queue sorts first by name, so placing whole jobs gives it all 16; per-pod
   * placement by share gives 12/4, and since every later cycle starts from the previous one's
   * bindings, the split must hold without flapping.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void twoQueuesWeightedThreeToOneSplitSixteenGpusTwelveFourAndHoldItForFiftyCycles(
      String actions, SchedulerConfiguration configuration) {
    List<QueueInfo> queues =
        List.of(queue("research").weight(1).build(), queue("training").weight(3).build());
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                configuration,
                sixteenGpus(),
                List.of(
                    elasticGpuJob("explore", "research", 0), elasticGpuJob("learn", "training", 0)),
                queues)
            .followingControllerStages();

    List<Map<String, Long>> splits = new ArrayList<>();
    for (int cycle = 0; cycle < 50; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result)).isEmpty();
      assertThat(result.allVictims()).isEmpty();
      splits.add(gpusByQueue(simulator.lastSnapshot(), result));
    }

    assertThat(splits)
        .allSatisfy(
            split ->
                assertThat(split).containsEntry("training", 12L).containsEntry("research", 4L));
  }

  @Test
  void elasticPodsOfTwoJobsInOneDrfQueueInterleaveEightEight() {
    List<QueueInfo> queues = List.of(queue("default").policy(JobQueuePolicy.DRF).build());
    Snapshot snapshot =
        new Snapshot(
            sixteenGpus(),
            List.of(elasticGpuJob("first", "default", 0), elasticGpuJob("second", "default", 1)),
            queues);

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(10));

    assertThat(result.decision("default/first").allocations()).hasSize(9);
    assertThat(result.decision("default/second").allocations()).hasSize(9);
    assertThat(result.decision("default/first").state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
  }

  /** A queue's capability is a hard limit in allocate, even for a queue alone on the cluster. */
  @Test
  void aQueueIsNeverAllocatedPastItsCapability() {
    List<QueueInfo> queues = List.of(queue("capped").capability(GPU, "4").build());
    Snapshot snapshot =
        new Snapshot(sixteenGpus(), List.of(elasticGpuJob("greedy", "capped", 0)), queues);

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0)
            .decision("default/greedy");

    assertThat(decision.allocations()).hasSize(5);
    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(decision.message())
        .contains("queue capped is at its limit: holds 4 of 4 nvidia.com/gpu");
  }

  /** The gang minimum is held to the capability too: all of it under the cap, or none of it. */
  @Test
  void aMinimumThatWouldPassTheCapabilityIsNotPlacedAtAll() {
    List<QueueInfo> queues = List.of(queue("capped").capability(GPU, "4").build());
    JobInfo running =
        job("running")
            .queue("capped")
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1", GPU, "1")
            .placed("running-learner", "g1")
            .placed("running-actor-0", "g1")
            .placed("running-actor-1", "g1")
            .build();
    JobInfo newcomer =
        job("newcomer")
            .queue("capped")
            .created(T0.plusSeconds(1))
            .minWorkers(3)
            .leader("cpu", "1")
            .workers("actor", 3, "cpu", "1", GPU, "1")
            .build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(sixteenGpus(), List.of(running, newcomer), queues),
                Fixtures.configuration(
                    """
            actions: "allocate"
            tiers:
              - plugins: [{name: priority}, {name: gang}, {name: predicates}, {name: nodeorder}]
            """),
                T0);

    assertThat(result.decision("default/newcomer").allocations()).isEmpty();
    assertThat(result.decision("default/newcomer").message())
        .contains("gang minimum leader+3 workers not met")
        .contains("queue capped is at its limit");
  }

  /**
   * 1:3 shares of 32 cpu between two queues of elastic cpu jobs, with churn: every 5 cycles each
   * queue's job completes and a new one arrives. Each cycle's split stays 8/24: the room a job
   * frees goes back to its queue, the other being at its deserved share.
   */
  @Test
  void weightsOneToThreeHoldEightTwentyFourCpuThroughArrivalsAndCompletions() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("c" + i).cpu("8").memory("64Gi").build());
    }
    List<QueueInfo> queues =
        List.of(queue("a-small").weight(1).build(), queue("b-large").weight(3).build());
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                List.of(cpuJob("a-0", "a-small", 0), cpuJob("b-0", "b-large", 0)),
                queues)
            .followingControllerStages();

    List<Map<String, Long>> splits = new ArrayList<>();
    for (int cycle = 0; cycle < 40; cycle++) {
      if (cycle > 0 && cycle % 5 == 0) {
        int generation = cycle / 5;
        simulator.complete("default/a-" + (generation - 1));
        simulator.complete("default/b-" + (generation - 1));
        simulator.submit(cpuJob("a-" + generation, "a-small", cycle));
        simulator.submit(cpuJob("b-" + generation, "b-large", cycle));
      }
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      splits.add(
          new LinkedHashMap<>(
              DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU)));
    }

    assertThat(splits)
        .allSatisfy(
            split ->
                assertThat(split)
                    .containsEntry("a-small", 8_000L)
                    .containsEntry("b-large", 24_000L));
  }

  private static JobInfo cpuJob(String name, String queue, int createdSecond) {
    return job(name)
        .queue(queue)
        .created(T0.plusSeconds(createdSecond))
        .minWorkers(1)
        .leader("cpu", "1")
        .workers("actor", 40, "cpu", "1")
        .build();
  }

  /** Elastic pods are placed on idle room only, and a job whose next pod has no room says so. */
  @Test
  void anElasticPodWithoutRoomLeavesTheJobPartlyScheduledWithItsReason() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("g1").cpu("64").memory("256Gi").gpu(8).build()),
            List.of(elasticGpuJob("big", "default", 0)),
            List.of());

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0)
            .decision("default/big");

    assertThat(decision.allocations()).hasSize(9);
    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(decision.message())
        .isEqualTo(
            "leader+8/16 workers placed; 0/1 nodes fit actor: 1 Insufficient nvidia.com/gpu");
  }
}
