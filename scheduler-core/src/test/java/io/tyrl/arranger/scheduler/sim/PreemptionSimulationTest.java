package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.Victim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Preempt and reclaim over many cycles with the controller played by the {@link ClusterSimulator}.
 * (The random workload was also run over 300 further seeds while developing; the fixed seeds here
 * include ones that caught a victim evicted twice by one preemptor before waiting jobs re-claimed
 * their releasing room first.)
 */
class PreemptionSimulationTest {

  private static final int CYCLES = 200;
  private static final int STEADY_FROM = 120;
  private static final int NODES = 6;
  private static final long NODE_CPU = 8000;

  @Test
  void twoJobsOfEqualPriorityNeverEvictEachOther() {
    JobInfo running =
        job("running")
            .minWorkers(1)
            .leader("cpu", "2")
            .workers("w", 2, "cpu", "1")
            .running("n", 2)
            .build();
    JobInfo waiting =
        job("waiting")
            .created(T0.plusSeconds(1))
            .minWorkers(1)
            .leader("cpu", "2")
            .workers("w", 2, "cpu", "1")
            .build();
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            List.of(node("n").cpu("4").memory("8Gi").build()),
            List.of(running, waiting),
            List.of(),
            1);

    for (int cycle = 0; cycle < 20; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));

      assertThat(result.victims()).as("cycle %d", cycle).isEmpty();
      assertThat(result.decision("default/running").allocations()).hasSize(3);
    }
  }

  @Test
  void aVictimNeverTakesItsRoomBackFromThePreemptorItMadeRoomFor() {
    JobInfo low =
        job("low")
            .priority(3)
            .minWorkers(1)
            .leader("cpu", "2")
            .workers("w", 2, "cpu", "1")
            .running("n", 2)
            .build();
    JobInfo high =
        job("high")
            .priority(7)
            .created(T0.plusSeconds(1))
            .minWorkers(1)
            .leader("cpu", "2")
            .workers("w", 2, "cpu", "1")
            .build();
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            List.of(node("n").cpu("4").memory("8Gi").build()),
            List.of(low, high),
            List.of(),
            1);
    List<Integer> cyclesWithVictims = new ArrayList<>();

    CycleResult result = null;
    for (int cycle = 0; cycle < 20; cycle++) {
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      if (!result.victims().isEmpty()) {
        cyclesWithVictims.add(cycle);
      }
    }

    assertThat(cyclesWithVictims).containsExactly(0);
    assertThat(result.decision("default/high").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/low").allocations()).isEmpty();
  }

  /**
   * Queue q capped at 4 cpu on a 12-cpu node, a low-priority job holding 3. The high-priority job
   * of 3 cpu used to wait forever ("fits without eviction", yet its queue could not hold it). Now
   * the low job is evicted once, the high one runs from then on, and the low one waits under the
   * cap.
   */
  @Test
  void aHigherPriorityJobInACappedQueueRunsAfterOneEvictionAndKeepsItsRoom() {
    JobInfo low =
        job("low").queue("q").priority(2).minWorkers(0).leader("cpu", "3").running("n", 0).build();
    JobInfo high =
        job("high")
            .queue("q")
            .priority(8)
            .created(T0.plusSeconds(1))
            .minWorkers(0)
            .leader("cpu", "3")
            .build();
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            List.of(node("n").cpu("12").memory("32Gi").build()),
            List.of(low, high),
            List.of(queue("q").capability("cpu", "4").build()),
            1);
    List<Integer> cyclesWithVictims = new ArrayList<>();
    int firstCycleRunning = -1;

    for (int cycle = 0; cycle < 20; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      if (!result.victims().isEmpty()) {
        cyclesWithVictims.add(cycle);
      }
      if (firstCycleRunning < 0
          && result.decision("default/high").state() == ScheduleState.SCHEDULED_SUCCEED) {
        firstCycleRunning = cycle;
      }
      if (firstCycleRunning >= 0) {
        assertThat(result.decision("default/high").allocations())
            .as("cycle %d", cycle)
            .containsOnlyKeys("high-learner");
        assertThat(result.decision("default/low").allocations())
            .as("cycle %d: the cap leaves no room for low", cycle)
            .isEmpty();
      }
    }

    assertThat(cyclesWithVictims).containsExactly(0);
    assertThat(firstCycleRunning).isBetween(1, 2);
  }

  static Stream<Arguments> randomMixedWorkload() {
    return Stream.of(
        Arguments.of(1L, 1),
        Arguments.of(7L, 0),
        Arguments.of(42L, 1),
        Arguments.of(101L, 2),
        Arguments.of(113L, 2),
        Arguments.of(250L, 1),
        Arguments.of(311L, 0),
        Arguments.of(2026L, 2));
  }

  /**
   * 200 cycles on 6 nodes of 8 cpu; two queues of weight 1 and 2; jobs of priority 3 or 7 with a
   * leader and 1..3 workers (some elastic), every pod 1 cpu. For 120 cycles jobs arrive and
   * complete at random; then demand is held steady (each queue keeps more pending than the cluster)
   * for 80 cycles.
   */
  @ParameterizedTest(name = "seed {0}, victims releasing for {1} cycle(s)")
  @MethodSource
  void randomMixedWorkload(long seed, int releaseCycles) {
    Random random = new Random(seed);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      nodes.add(node("n" + i).cpu(Long.toString(NODE_CPU / 1000)).memory("32Gi").build());
    }
    List<QueueInfo> queues = List.of(queue("q1").weight(1).build(), queue("q2").weight(2).build());
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            nodes,
            List.of(),
            queues,
            releaseCycles);
    Map<String, Integer> episode = new HashMap<>();
    Set<String> evictions = new HashSet<>();
    int[] nextJob = {0};
    long largestJobCpu = 4000;

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle < STEADY_FROM) {
        if (random.nextInt(3) > 0) {
          simulator.submit(
              randomJob(random, nextJob[0]++, cycle, random.nextBoolean() ? "q1" : "q2"));
        }
        for (JobInfo job : List.copyOf(simulator.jobs())) {
          boolean running =
              job.tasks().stream().anyMatch(task -> task.status() == TaskStatus.ALLOCATED);
          if (running && random.nextInt(25) == 0) {
            simulator.complete(job.key());
          }
        }
      } else if (cycle == STEADY_FROM) {
        for (String queue : List.of("q1", "q2")) {
          long pendingCpu = 0;
          while (pendingCpu < NODES * NODE_CPU) {
            JobInfo job = randomJob(random, nextJob[0]++, cycle, queue);
            simulator.submit(job);
            pendingCpu += job.tasks().size() * 1000L;
          }
        }
      }

      CycleResult result = simulator.cycle(T0.plusSeconds(1000 + cycle));

      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      for (JobInfo job : simulator.lastSnapshot().jobs()) {
        JobDecision decision = result.decision(job.key());
        if (decision.allocations().isEmpty()) {
          episode.putIfAbsent(job.key(), cycle);
        } else {
          episode.remove(job.key());
        }
      }
      for (Map.Entry<String, List<Victim>> entry : result.victims().entrySet()) {
        String preemptor = entry.getKey();
        for (Victim victim : entry.getValue()) {
          // A running job growing its surplus takes pod after pod, from the same victim job too;
          // taking the same pod again would be ping-pong. A job waiting for its minimum takes from
          // a victim job once per wait.
          List<String> taken =
              episode.get(preemptor) == null
                  ? victim.pods().stream().map(pod -> victim.namespace() + "/" + pod).toList()
                  : List.of(
                      victim.jobKey() + " while waiting since cycle " + episode.get(preemptor));
          for (String what : taken) {
            String key = preemptor + " -> " + what;
            assertThat(evictions.add(key))
                .as("evicted twice by the same preemptor: %s (cycle %d)", key, cycle)
                .isTrue();
          }
        }
      }
      if (cycle >= CYCLES - 30) {
        Map<String, Long> allocated =
            DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU);
        for (QueueSummary summary : result.queues().values()) {
          if (!allocated.containsKey(summary.name())) {
            continue;
          }
          long deserved = summary.deserved().milliCpu();
          assertThat(allocated.get(summary.name()))
              .as("queue %s at cycle %d (deserved %d)", summary.name(), cycle, deserved)
              .isBetween(deserved - largestJobCpu, deserved + largestJobCpu);
        }
      }
    }
    assertThat(evictions).as("the workload does exercise preemption or reclaim").isNotEmpty();
  }

  private static JobInfo randomJob(Random random, int index, int cycle, String queue) {
    int workers = 1 + random.nextInt(3);
    return job("j" + index)
        .queue(queue)
        .priority(random.nextBoolean() ? 3 : 7)
        .created(T0.plusSeconds(cycle * 10L + index % 10))
        .minWorkers(random.nextInt(workers + 1))
        .leader("cpu", "1")
        .workers("w", workers, "cpu", "1")
        .build();
  }
}
