package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Victim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default configuration's shares when work arrives the way it does on a real cluster: one job
 * at a time, and room freed one node at a time. Tests that start with every job already in the
 * snapshot cannot see either.
 */
class ArrivalOverTimeTest {

  /**
   * Weights 3 and 1, 16 GPUs: the first job's cycles run before the second job exists, so it takes
   * all 16. Once the second arrives, its queue takes its 4 back from the first job's surplus actors
   * within 10 cycles, and the split then holds without a single further eviction; the first job's
   * learner and gang minimum are never touched.
   */
  @Test
  void aSecondQueuesJobArrivingLateGetsItsShareBackFromTheFirstJobsSurplus() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("32").memory("128Gi").gpu(4).build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                List.of(elasticGpuJob("a-job", "a", 0)),
                List.of(queue("a").weight(3).build(), queue("b").weight(1).build()))
            .followingControllerStages();

    for (int cycle = 0; cycle < 3; cycle++) {
      simulator.cycle(T0.plusSeconds(10 + cycle));
    }
    assertThat(gpusByQueue(simulator)).containsEntry("a", 16L);

    simulator.submit(elasticGpuJob("b-job", "b", 3));
    List<Map<String, Long>> splits = new ArrayList<>();
    List<Victim> victims = new ArrayList<>();
    for (int cycle = 3; cycle < 63; cycle++) {
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      victims.addAll(result.allVictims());
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result)).isEmpty();
      splits.add(
          new LinkedHashMap<>(DecisionChecks.wholeGpusByQueue(simulator.lastSnapshot(), result)));
    }

    assertThat(splits.subList(10, splits.size()))
        .allSatisfy(split -> assertThat(split).containsEntry("a", 12L).containsEntry("b", 4L));
    assertThat(victims).isNotEmpty().noneMatch(Victim::wholeJob);
    assertThat(victims).allMatch(victim -> victim.jobKey().equals("default/a-job"));
    assertThat(victims.stream().mapToInt(victim -> victim.pods().size()).sum())
        .as("exactly the 4 GPUs the second queue deserves were taken back, once")
        .isEqualTo(4);
  }

  /**
   * Weights 1 and 3, 16 two-cpu jobs waiting in each on a cluster full of other pods (8 nodes × 4
   * cpu); the other pods end one at a time, node after node (the weight-1 queue sorts first by
   * name, so a tie goes its way). Within 10 cycles of the last one ending, the queues hold 8 and 24
   * cpu, and keep them.
   */
  @Test
  void roomFreedNodeByNodeEndsSplitByTheWeights() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                cpuNodes(0),
                twoCpuJobs(),
                List.of(queue("a-light").weight(1).build(), queue("b-heavy").weight(3).build()))
            .followingControllerStages();

    List<Map<String, Long>> splits = new ArrayList<>();
    int lastFreed = 32;
    for (int cycle = 0; cycle < lastFreed + 30; cycle++) {
      simulator.replaceNodes(cpuNodes(Math.min(cycle, lastFreed)));
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result)).isEmpty();
      splits.add(
          new LinkedHashMap<>(
              DecisionChecks.allocatedByQueue(simulator.lastSnapshot(), result, Resource.CPU)));
    }

    assertThat(splits.subList(lastFreed + 10, splits.size()))
        .allSatisfy(
            split ->
                assertThat(split)
                    .containsEntry("a-light", 8_000L)
                    .containsEntry("b-heavy", 24_000L));
  }

  /** 8 nodes × 4 cpu, full of other pods of 1 cpu each, of which the first {@code ended} ended. */
  private static List<NodeInfo> cpuNodes(int ended) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      int stillUsed = Math.max(0, Math.min(4, 4 * (i + 1) - ended));
      Fixtures.NodeBuilder node = node("c" + i).cpu("4").memory("64Gi");
      nodes.add(
          stillUsed == 0 ? node.build() : node.used("cpu", Integer.toString(stillUsed)).build());
    }
    return nodes;
  }

  private static List<JobInfo> twoCpuJobs() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      for (String queue : List.of("a-light", "b-heavy")) {
        jobs.add(
            job(queue + "-" + i)
                .queue(queue)
                .created(T0.plusSeconds(i))
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("actor", 1, "cpu", "1")
                .build());
      }
    }
    return jobs;
  }

  private static JobInfo elasticGpuJob(String name, String queue, int createdSecond) {
    return job(name)
        .queue(queue)
        .created(T0.plusSeconds(createdSecond))
        .minWorkers(2)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", 16, "cpu", "1", Resource.GPU, "1")
        .build();
  }

  private static Map<String, Long> gpusByQueue(ClusterSimulator simulator) {
    Map<String, Long> byQueue = new LinkedHashMap<>();
    for (JobInfo job : simulator.jobs()) {
      long gpus =
          job.tasks().stream()
              .filter(task -> task.nodeName() != null)
              .mapToLong(task -> task.request().get(Resource.GPU))
              .sum();
      byQueue.merge(job.queue(), DecisionChecks.wholeGpus(gpus), Long::sum);
    }
    return byQueue;
  }
}
