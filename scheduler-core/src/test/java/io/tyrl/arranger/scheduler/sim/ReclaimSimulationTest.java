package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Victim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reclaim across cycles on 4 nodes of 4 cpu (16 cpu), with every pod asking 1 cpu. Victims' pods
 * show as releasing in the cycle after they are chosen and are gone in the one after, as the
 * controller would delete them.
 */
class ReclaimSimulationTest {

  private static final long CPU_PER_JOB = 2000;

  private static List<NodeInfo> nodes() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("n" + i).cpu("4").memory("16Gi").build());
    }
    return nodes;
  }

  /** A leader and one worker (the minimum), placed on node {@code n<index / 2>} when running. */
  private static JobInfo pair(String name, String queue, int index, boolean running) {
    Fixtures.JobBuilder builder =
        job(name)
            .queue(queue)
            .created(T0.plusSeconds(index))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("w", 1, "cpu", "1");
    return running ? builder.running("n" + index / 2, 1).build() : builder.build();
  }

  private static ClusterSimulator fullQueueA(List<QueueInfo> queues, int pendingInB) {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(pair("a" + i, "a", i, true));
    }
    for (int i = 0; i < pendingInB; i++) {
      jobs.add(pair("b" + i, "b", 10 + i, false));
    }
    return new ClusterSimulator(
        Fixtures.scheduler(), Fixtures.preemptingConfiguration(), nodes(), jobs, queues, 1);
  }

  @Test
  void aNewQueueOfEqualWeightGetsBackHalfTheClusterWithinThreeCyclesAndKeepsIt() {
    ClusterSimulator simulator = fullQueueA(List.of(queue("a").build(), queue("b").build()), 8);
    int victimsChosen = 0;
    Map<String, Long> allocated = Map.of();

    for (int cycle = 0; cycle < 15; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(100 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result)).isEmpty();
      allocated = DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU);
      assertThat(allocated.get("a"))
          .as("queue a is never taken below its deserved 8 cpu (cycle %d)", cycle)
          .isGreaterThanOrEqualTo(8000);
      for (Victim victim : result.allVictims()) {
        assertThat(victim.jobKey()).startsWith("default/a");
        assertThat(victim.wholeJob()).as("a leader+1 gang cannot lose its only worker").isTrue();
        assertThat(victim.reason()).contains("reclaimed by queue b");
        victimsChosen++;
      }
      if (cycle == 0) {
        assertThat(result.decision("default/b0").reason())
            .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
        assertThat(result.decision(result.allVictims().get(0).jobKey()).reason())
            .isEqualTo(ReasonCode.RECLAIMED);
      }
      if (cycle >= 2) {
        assertThat(allocated).as("cycle %d", cycle).isEqualTo(Map.of("a", 8000L, "b", 8000L));
      }
    }
    assertThat(victimsChosen).as("exactly the 4 jobs of a above its share, each once").isEqualTo(4);
  }

  @Test
  void queuesAtTheirDeservedShareNeverEvictEachOther() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(pair("a" + i, "a", i, true));
      jobs.add(pair("b" + i, "b", 4 + i, true));
      jobs.add(pair("a-waiting" + i, "a", 20 + i, false));
      jobs.add(pair("b-waiting" + i, "b", 30 + i, false));
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            nodes(),
            jobs,
            List.of(queue("a").build(), queue("b").build()),
            1);

    for (int cycle = 0; cycle < 20; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(100 + cycle));

      assertThat(result.victims()).as("cycle %d", cycle).isEmpty();
      assertThat(DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU))
          .isEqualTo(Map.of("a", 8000L, "b", 8000L));
    }
  }

  @Test
  void aQueueThatIsNotReclaimableKeepsWhatItHolds() {
    ClusterSimulator simulator =
        fullQueueA(List.of(queue("a").reclaimable(false).build(), queue("b").build()), 8);

    for (int cycle = 0; cycle < 5; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(100 + cycle));

      assertThat(result.victims()).isEmpty();
      assertThat(
              DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU)
                  .get("a"))
          .isEqualTo(16 * 1000L);
    }
  }

  @Test
  void reclaimTakesOnlyWhatTheQueueNeedsUpToItsShare() {
    ClusterSimulator simulator = fullQueueA(List.of(queue("a").build(), queue("b").build()), 1);

    CycleResult result = simulator.cycle(T0.plusSeconds(100));

    assertThat(result.allVictims()).hasSize(1);
    assertThat(result.allVictims().get(0).pods()).hasSize((int) (CPU_PER_JOB / 1000));
  }

  /**
   * No reclaim ping-pong between queues short of different resources. Four nodes of 6 cpu and 6
   * GPUs; queue {@code cpu} runs pods of 2 cpu + 1 GPU, queue {@code gpu} pods of 1 cpu + 2 GPUs,
   * each with more pending than the cluster holds, so each deserves 12 cpu and 12 GPUs. Allocate
   * leaves {@code cpu} above its share of cpu and below it in GPUs, and {@code gpu} the other way
   * round. Each queue lacks what the other holds too much of, but any pod one takes from the other
   * gives the victim's queue as much shortfall as it removes: taking it is no progress, so after
   * the first cycles nobody is evicted, over 60 cycles.
   */
  @Test
  void twoQueuesAboveTheirSharesOfDifferentResourcesDoNotReclaimFromEachOtherBackAndForth() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("n" + i).cpu("6").gpu(6).memory("64Gi").build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      jobs.add(
          job("c" + i)
              .queue("cpu")
              .created(T0.plusSeconds(2 * i))
              .minWorkers(0)
              .leader("cpu", "2", Resource.GPU, "1")
              .build());
      jobs.add(
          job("g" + i)
              .queue("gpu")
              .created(T0.plusSeconds(2 * i + 1))
              .minWorkers(0)
              .leader("cpu", "1", Resource.GPU, "2")
              .build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            nodes,
            jobs,
            List.of(queue("cpu").build(), queue("gpu").build()),
            1);
    List<Integer> cyclesWithVictims = new ArrayList<>();
    Map<String, Long> lastCpu = Map.of();

    for (int cycle = 0; cycle < 60; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(100 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      if (!result.victims().isEmpty()) {
        cyclesWithVictims.add(cycle);
      }
      Map<String, Long> cpu =
          DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU);
      if (cycle >= 10) {
        assertThat(cpu).as("allocations stand still at cycle %d", cycle).isEqualTo(lastCpu);
      }
      lastCpu = cpu;
    }

    assertThat(cyclesWithVictims).as("cycles that evicted anything").isEmpty();
    Map<String, Long> gpus =
        DecisionChecks.wholeGpusByQueue(
            simulator.lastSnapshot(), simulator.cycle(T0.plusSeconds(200)));
    assertThat(gpus.values().stream().mapToLong(Long::longValue).sum())
        .as("the cluster stays in use: every GPU is held")
        .isEqualTo(24L);
  }

  /**
   * The same two queues, then a third arrives with pods of 1 cpu + 1 GPU: every pod it takes back
   * lowers the shortfall below shares, so it does reclaim, until it holds a fair part; then the
   * cluster stands still again through cycle 60.
   */
  @Test
  void aNewQueueStillReclaimsFromQueuesHoldingMixedResourcesAndThenEvictionsStop() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("n" + i).cpu("6").gpu(6).memory("64Gi").build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      jobs.add(
          job("c" + i)
              .queue("cpu")
              .created(T0.plusSeconds(3 * i))
              .minWorkers(0)
              .leader("cpu", "2", Resource.GPU, "1")
              .build());
      jobs.add(
          job("g" + i)
              .queue("gpu")
              .created(T0.plusSeconds(3 * i + 1))
              .minWorkers(0)
              .leader("cpu", "1", Resource.GPU, "2")
              .build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            nodes,
            jobs,
            List.of(queue("cpu").build(), queue("gpu").build(), queue("new").build()),
            1);
    for (int cycle = 0; cycle < 5; cycle++) {
      simulator.cycle(T0.plusSeconds(100 + cycle));
    }
    for (int i = 0; i < 12; i++) {
      simulator.submit(
          job("m" + i)
              .queue("new")
              .created(T0.plusSeconds(200 + i))
              .minWorkers(0)
              .leader("cpu", "1", Resource.GPU, "1")
              .build());
    }
    int reclaimed = 0;
    int lastCycleWithVictims = -1;
    CycleResult result = null;

    for (int cycle = 5; cycle < 60; cycle++) {
      result = simulator.cycle(T0.plusSeconds(100 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      for (Victim victim : result.allVictims()) {
        assertThat(victim.reason()).contains("reclaimed by queue new");
        reclaimed++;
        lastCycleWithVictims = cycle;
      }
    }

    assertThat(reclaimed).as("the new queue does reclaim").isPositive();
    assertThat(lastCycleWithVictims).as("and evictions stop well before cycle 60").isLessThan(30);
    assertThat(
            DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.GPU)
                .get("new"))
        .as("GPUs the new queue holds at the end")
        .isGreaterThanOrEqualTo(4L);
  }
}
