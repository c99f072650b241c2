package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Victim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A two-level tree under the default configuration, with jobs and a queue arriving between cycles:
 * the first team fills the idle cluster with surplus, the others arrive one by one and take back
 * their shares from that surplus only; then nothing moves for 50 cycles. (Every job's core fits in
 * its queue's final share: a share smaller than the cores a queue runs is not reached by reclaim,
 * which never takes a core to grow another job and takes one for a starving job only when the
 * victim's queue stays at or above its share.)
 */
class QueueTreeOverTimeTest {

  private static final int SETTLED = 50;
  private static final int CYCLES = SETTLED + 50;

  @Test
  void latecomersReachTheirSharesFromSurplusOnlyAndThenNothingMoves() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(4).build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                List.of(elastic("a1-sweep", "a1", 32, 2, 0)),
                List.of(
                    queue("dept-a").guarantee(Resource.GPU, "16").build(),
                    queue("a1").parent("dept-a").guarantee(Resource.GPU, "8").build(),
                    queue("a2").parent("dept-a").guarantee(Resource.GPU, "8").build(),
                    queue("dept-b").build(),
                    queue("b1").parent("dept-b").build()))
            .followingControllerStages();

    List<Victim> victims = new ArrayList<>();
    List<Victim> settledVictims = new ArrayList<>();
    int a2HeldItsGuaranteeFrom = -1;
    CycleResult result = null;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle == 5) {
        simulator.submit(elastic("b1-one", "b1", 8, 1, cycle));
        simulator.submit(elastic("b1-two", "b1", 8, 1, cycle));
      }
      if (cycle == 15) {
        simulator.submit(elastic("a2-run", "a2", 8, 2, cycle));
      }
      if (cycle == 30) {
        simulator.putQueue(queue("b2").parent("dept-b").build());
        simulator.submit(elastic("b2-run", "b2", 8, 2, cycle));
      }
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      victims.addAll(result.allVictims());
      if (cycle >= SETTLED) {
        settledVictims.addAll(result.allVictims());
      }
      long a2 = gpus(simulator, result, "a2");
      if (a2HeldItsGuaranteeFrom < 0 && a2 >= 8) {
        a2HeldItsGuaranteeFrom = cycle;
      }
      if (a2HeldItsGuaranteeFrom >= 0) {
        assertThat(a2).as("a2 keeps its guarantee, cycle %d", cycle).isGreaterThanOrEqualTo(8);
      }
    }

    assertThat(a2HeldItsGuaranteeFrom).as("a2 reaches its guarantee").isBetween(15, 25);
    assertThat(victims).isNotEmpty().noneMatch(Victim::wholeJob);
    assertThat(settledVictims).as("no ping-pong once settled").isEmpty();
    Map<String, QueueSummary> queues = result.queues();
    assertThat(wholeGpus(queues.get("dept-a").deserved().get(Resource.GPU))).isEqualTo(24);
    assertThat(wholeGpus(queues.get("dept-b").deserved().get(Resource.GPU))).isEqualTo(8);
    for (String leaf : List.of("a1", "a2", "b1", "b2")) {
      assertThat(gpus(simulator, result, leaf))
          .as("queue %s holds its fair share", leaf)
          .isEqualTo(wholeGpus(queues.get(leaf).deserved().get(Resource.GPU)));
    }
    assertThat(wholeGpus(queues.get("a1").deserved().get(Resource.GPU))).isEqualTo(16);
    assertThat(wholeGpus(queues.get("a2").deserved().get(Resource.GPU))).isEqualTo(8);
    assertThat(wholeGpus(queues.get("b1").deserved().get(Resource.GPU))).isEqualTo(4);
    assertThat(wholeGpus(queues.get("b2").deserved().get(Resource.GPU))).isEqualTo(4);
  }

  /**
   * Two nodes of 4 cpu and 4 GPUs, each full with a job of queue filler. Queue gpu, guaranteed 2
   * GPUs, submits a job of two pods of 4 cpu and 1 GPU; it reclaims a filler's node, the fillers
   * end one node at a time (cycles 5 and 10), and it holds both nodes. Queue cpu appears at cycle
   * 12 with a cpu-only job: gpu is then above its cpu share, but each of its pods holds part of its
   * GPU guarantee, so reclaim takes none for 30 cycles. When gpu's job ends, cpu's job gets the
   * room within 3 cycles.
   */
  @Test
  void aGuaranteeHeldByCpuHeavyPodsOutlivesAnotherQueuesCpuShareOverTime() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                List.of(
                    node("n0").cpu("4").memory("64Gi").gpu(4).build(),
                    node("n1").cpu("4").memory("64Gi").gpu(4).build()),
                List.of(filler("filler-0", "n0"), filler("filler-1", "n1")),
                List.of(queue("filler").build(), queue("gpu").guarantee(Resource.GPU, "2").build()))
            .followingControllerStages();
    List<Victim> victims = new ArrayList<>();
    int gpuHeldItsGuaranteeFrom = -1;
    int cpuStartedAt = -1;
    for (int cycle = 0; cycle < 50; cycle++) {
      if (cycle == 1) {
        simulator.submit(
            job("gpu-job")
                .queue("gpu")
                .created(T0.plusSeconds(cycle))
                .minWorkers(0)
                .leader("cpu", "4", Resource.GPU, "1")
                .workers("actor", 1, "cpu", "4", Resource.GPU, "1")
                .build());
      }
      if (cycle == 5) {
        simulator.complete("default/filler-0");
      }
      if (cycle == 10) {
        simulator.complete("default/filler-1");
      }
      if (cycle == 12) {
        simulator.putQueue(queue("cpu").build());
        simulator.submit(
            job("cpu-job")
                .queue("cpu")
                .created(T0.plusSeconds(cycle))
                .minWorkers(0)
                .leader("cpu", "4")
                .workers("w", 1, "cpu", "4")
                .build());
      }
      if (cycle == 40) {
        simulator.complete("default/gpu-job");
      }
      CycleResult result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      result.allVictims().stream()
          .filter(victim -> victim.jobKey().equals("default/gpu-job"))
          .forEach(victims::add);
      long gpu = gpus(simulator, result, "gpu");
      if (cycle < 40 && gpuHeldItsGuaranteeFrom < 0 && gpu >= 2) {
        gpuHeldItsGuaranteeFrom = cycle;
      }
      if (gpuHeldItsGuaranteeFrom >= 0 && cycle < 40) {
        assertThat(gpu).as("gpu keeps its guarantee, cycle %d", cycle).isGreaterThanOrEqualTo(2);
      }
      boolean cpuRunning =
          simulator.lastSnapshot().jobs().stream()
                  .anyMatch(job -> job.key().equals("default/cpu-job"))
              && !result.decision("default/cpu-job").allocations().isEmpty();
      if (cpuStartedAt < 0 && cpuRunning) {
        cpuStartedAt = cycle;
      }
    }

    assertThat(gpuHeldItsGuaranteeFrom)
        .as("gpu holds both nodes once they are free")
        .isBetween(10, 12);
    assertThat(victims).as("nothing reclaimed from the guarantee").isEmpty();
    assertThat(cpuStartedAt).as("cpu starts once gpu's job ends").isBetween(40, 43);
  }

  /**
   * Room freed node by node while jobs arrive: four nodes of 4 GPUs, each full with a job of a
   * queue that gives nothing back, ending at cycles 5, 10, 15 and 20. Team a's elastic job (16
   * GPUs, minimum 2 actors) is submitted at cycle 1 and grows as room frees; team b submits a 2-GPU
   * job every other cycle from cycle 3 on. a and b share the cluster 8 and 8 once the fillers are
   * gone. While a is below its share and wants more, b's jobs never start on room that takes b
   * above its share (that room is a's to grow into, and growth cannot take a core back); a reaches
   * 8 within 3 cycles of the last node freeing, and nothing moves for the last 50 cycles.
   */
  @Test
  void roomFreedNodeByNodeGoesToTheGrowingTeamBeforeAnotherTeamsCoresBorrowIt() {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> fillers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(4).build());
      fillers.add(runningOneGpuPods("filler-" + i, "filler", 3, "g" + i).build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                fillers,
                List.of(
                    queue("filler").reclaimable(false).build(),
                    queue("a").build(),
                    queue("b").build()))
            .followingControllerStages();

    List<Victim> victims = new ArrayList<>();
    List<Victim> settledVictims = new ArrayList<>();
    int aAtShareFrom = -1;
    CycleResult result = null;
    for (int cycle = 0; cycle < 80; cycle++) {
      if (cycle == 1) {
        simulator.submit(elastic("a-sweep", "a", 16, 2, cycle));
      }
      if (cycle >= 3 && cycle <= 29 && cycle % 2 == 1) {
        simulator.submit(elastic("b-" + cycle, "b", 2, 1, cycle));
      }
      if (cycle > 0 && cycle <= 20 && cycle % 5 == 0) {
        simulator.complete("default/filler-" + (cycle / 5 - 1));
      }
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      victims.addAll(result.allVictims());
      if (cycle >= 30) {
        settledVictims.addAll(result.allVictims());
      }
      long a = gpus(simulator, result, "a");
      long b = gpus(simulator, result, "b");
      long aShare = wholeGpus(result.queues().get("a").deserved().get(Resource.GPU));
      long bShare = wholeGpus(result.queues().get("b").deserved().get(Resource.GPU));
      if (a < aShare) {
        assertThat(b)
            .as(
                "cycle %d: a holds %d of its %d, so b stays within its %d",
                cycle, a, aShare, bShare)
            .isLessThanOrEqualTo(bShare);
      }
      if (aAtShareFrom < 0 && cycle >= 20 && a >= 8) {
        aAtShareFrom = cycle;
      }
    }

    assertThat(aAtShareFrom).as("a at its share after the last node frees").isBetween(20, 23);
    assertThat(victims).as("no core evicted").noneMatch(Victim::wholeJob);
    assertThat(settledVictims).as("no ping-pong once settled").isEmpty();
    assertThat(gpus(simulator, result, "a")).isEqualTo(8);
    assertThat(gpus(simulator, result, "b")).isEqualTo(8);
  }

  /**
   * Free room in pieces, over time: four nodes of 8 GPUs, each with a 2-GPU job of queue b (its
   * share). Queue a, guaranteed 16, submits an 8-GPU learner at cycles 1 and 6, while queue c
   * submits a 1-GPU job every third cycle up to cycle 19. No node ever has 8 GPUs free unless jobs
   * move: reclaim moves jobs that fit elsewhere in free room, both learners run within 5 cycles of
   * their arrival, every moved job runs again, and nothing moves for the last 50 cycles.
   */
  @Test
  void learnersGatherFreeRoomInPiecesAndEveryMovedJobRunsAgain() {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> spread = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(8).build());
      spread.add(runningOneGpuPods("b-" + i, "b", 1, "g" + i).runningSince(T0).build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                spread,
                List.of(
                    queue("a").guarantee(Resource.GPU, "16").build(),
                    queue("b").build(),
                    queue("c").build()))
            .followingControllerStages();

    Map<String, Integer> placedAt = new HashMap<>();
    List<Victim> settledVictims = new ArrayList<>();
    CycleResult result = null;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle == 1 || cycle == 6) {
        simulator.submit(
            job("learner-" + cycle)
                .queue("a")
                .created(T0.plusSeconds(cycle))
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "8")
                .build());
      }
      if (cycle >= 1 && cycle <= 19 && cycle % 3 == 1) {
        simulator.submit(elastic("c-" + cycle, "c", 1, 0, cycle));
      }
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      for (String learner : List.of("default/learner-1", "default/learner-6")) {
        if (simulator.jobs().stream().anyMatch(job -> job.key().equals(learner))
            && !result.decision(learner).allocations().isEmpty()) {
          placedAt.putIfAbsent(learner, cycle);
        }
      }
      if (cycle >= SETTLED) {
        settledVictims.addAll(result.allVictims());
      }
    }

    assertThat(placedAt.get("default/learner-1")).as("learner-1 placed").isBetween(1, 6);
    assertThat(placedAt.get("default/learner-6")).as("learner-6 placed").isBetween(6, 11);
    assertThat(gpus(simulator, result, "a")).isEqualTo(16);
    assertThat(gpus(simulator, result, "b")).as("every job of b runs again").isEqualTo(8);
    assertThat(gpus(simulator, result, "c")).as("every job of c runs").isEqualTo(7);
    assertThat(settledVictims).as("nothing moves once settled").isEmpty();
  }

  /**
   * A queue above its share of GPUs, but below its share of cpu, takes no room back through reclaim
   * for jobs enqueue keeps out. Four nodes of 8 GPUs are filled by queue x's four 8-GPU jobs, each
   * with four pods on one node and four on the next, while x waits with eight more 2-GPU jobs. At
   * cycle 1 queue y submits a whole-node learner and an elastic sweep of four 2-GPU pods: its share
   * is half the cluster. Reclaim evicts the two jobs on one node, which releases four GPUs on each
   * neighbour: the sweep takes them, and none of x's waiting jobs may start while x holds more than
   * its share. Then x's two remaining 8-GPU jobs end, at cycles 20 and 26, each freeing four GPUs
   * on two nodes: x's waiting jobs take that room, still never above x's share. Both of y's jobs
   * run, every one of x's waiting jobs runs, x ends at its share, and nothing moves once settled.
   */
  @Test
  void aQueueAboveItsShareStartsNoJobOnRoomReleasedForAnotherQueue() {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> spanning = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(8).build());
    }
    for (int k = 0; k < 4; k++) {
      spanning.add(runningAcross("x-" + k, "g" + k, "g" + ((k + 1) % 4)));
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                spanning,
                List.of(queue("x").build(), queue("y").build()))
            .followingControllerStages();
    for (int j = 0; j < 8; j++) {
      simulator.submit(elastic("x-more-" + j, "x", 2, 1, j));
    }

    Integer learnerPlacedAt = null;
    List<Victim> settledVictims = new ArrayList<>();
    Map<String, Boolean> hadRoom = new HashMap<>();
    CycleResult result = null;
    for (int cycle = 0; cycle < 60; cycle++) {
      if (cycle == 20 || cycle == 26) {
        CycleResult last = result;
        simulator.complete(
            simulator.jobs().stream()
                .map(JobInfo::key)
                .filter(key -> key.matches("default/x-\\d"))
                .filter(key -> !last.decision(key).allocations().isEmpty())
                .findFirst()
                .orElseThrow());
      }
      if (cycle == 1) {
        simulator.submit(
            job("learner")
                .queue("y")
                .created(T0.plusSeconds(cycle))
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "8")
                .build());
        simulator.submit(
            job("sweep")
                .queue("y")
                .created(T0.plusSeconds(cycle))
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("actor", 4, "cpu", "1", Resource.GPU, "2")
                .build());
      }
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      long x = gpus(simulator, result, "x");
      long xShare = wholeGpus(result.queues().get("x").deserved().get(Resource.GPU));
      for (JobInfo job : simulator.lastSnapshot().jobs()) {
        boolean hasRoom = !result.decision(job.key()).allocations().isEmpty();
        if (job.name().startsWith("x-more-")
            && hasRoom
            && !hadRoom.getOrDefault(job.key(), false)) {
          assertThat(x)
              .as(
                  "cycle %d: %s placed while x holds %d of its share %d",
                  cycle, job.key(), x, xShare)
              .isLessThanOrEqualTo(xShare);
        }
        hadRoom.put(job.key(), hasRoom);
        if (job.name().equals("learner") && hasRoom && learnerPlacedAt == null) {
          learnerPlacedAt = cycle;
        }
      }
      if (cycle >= 40) {
        settledVictims.addAll(result.allVictims());
      }
    }

    assertThat(learnerPlacedAt).as("the learner placed").isBetween(1, 4);
    assertThat(gpus(simulator, result, "y")).as("the learner and the whole sweep").isEqualTo(16);
    assertThat(gpus(simulator, result, "x")).isEqualTo(16);
    CycleResult last = result;
    assertThat(simulator.jobs())
        .as("the two jobs x lost to reclaim run again on the room x's ended jobs freed")
        .filteredOn(job -> job.name().matches("x-\\d"))
        .hasSize(2)
        .allSatisfy(job -> assertThat(last.decision(job.key()).allocations()).hasSize(8));
    assertThat(settledVictims).as("nothing moves once settled").isEmpty();
  }

  /**
   * A guarantee on a cluster full of small jobs, over time: four nodes of 8 GPUs, each with a 2-GPU
   * job of queue b (guaranteed 4, its share 8); queue c submits two 1-GPU jobs a cycle from cycle 1
   * to 12 and fills the rest. At cycle 14 queue a, guaranteed 8, submits a whole-node learner. c is
   * above its share, but its pods alone free at most 6 GPUs on a node, and no room is free to move
   * anything into: reclaim for the guarantee takes a node's b job and c jobs, b keeping its
   * guarantee. b's evicted job takes its room back from c's. Then c's jobs end two at a time from
   * cycle 30, freeing room node by node, and c's waiting jobs take it. a gets its guarantee within
   * four cycles, b never holds less than its guarantee, every queue ends at its share, and nothing
   * moves once settled.
   */
  @Test
  void aGuaranteeTakesAWholeNodeFromQueuesWithinTheirSharesAndAboveTheirGuarantees() {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> bJobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(8).build());
      bJobs.add(runningOneGpuPods("b-" + i, "b", 1, "g" + i).runningSince(T0).build());
    }
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                nodes,
                bJobs,
                List.of(
                    queue("a").guarantee(Resource.GPU, "8").build(),
                    queue("b").guarantee(Resource.GPU, "4").build(),
                    queue("c").build()))
            .followingControllerStages();

    Integer learnerPlacedAt = null;
    List<Victim> settledVictims = new ArrayList<>();
    CycleResult result = null;
    for (int cycle = 0; cycle < 70; cycle++) {
      if (cycle >= 1 && cycle <= 12) {
        simulator.submit(elastic("c-" + cycle + "-0", "c", 1, 0, cycle));
        simulator.submit(elastic("c-" + cycle + "-1", "c", 1, 0, cycle));
      }
      if (cycle == 14) {
        simulator.submit(
            job("learner")
                .queue("a")
                .created(T0.plusSeconds(cycle))
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "8")
                .build());
      }
      if (cycle >= 30 && cycle <= 36 && cycle % 2 == 0) {
        CycleResult last = result;
        simulator.jobs().stream()
            .map(JobInfo::key)
            .filter(key -> key.startsWith("default/c-"))
            .filter(key -> !last.decision(key).allocations().isEmpty())
            .limit(2)
            .toList()
            .forEach(simulator::complete);
      }
      result = simulator.cycle(T0.plusSeconds(10 + cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      if (cycle >= 1) {
        assertThat(gpus(simulator, result, "b"))
            .as("cycle %d: b keeps its guarantee", cycle)
            .isGreaterThanOrEqualTo(4);
      }
      if (cycle >= 14
          && learnerPlacedAt == null
          && !result.decision("default/learner").allocations().isEmpty()) {
        learnerPlacedAt = cycle;
      }
      if (cycle >= 50) {
        settledVictims.addAll(result.allVictims());
      }
    }

    assertThat(learnerPlacedAt).as("the learner placed").isBetween(14, 18);
    assertThat(gpus(simulator, result, "a")).isEqualTo(8);
    assertThat(gpus(simulator, result, "b")).as("b's evicted job runs again").isEqualTo(8);
    assertThat(gpus(simulator, result, "c")).as("c at its share").isEqualTo(16);
    assertThat(settledVictims).as("nothing moves once settled").isEmpty();
  }

  /**
   * A running job of queue x: a 1-GPU learner and seven 1-GPU actors, all of them its minimum, four
   * pods on {@code here} and four on {@code next}.
   */
  private static JobInfo runningAcross(String name, String here, String next) {
    Fixtures.JobBuilder job =
        job(name)
            .queue("x")
            .minWorkers(7)
            .leader("cpu", "1", Resource.GPU, "1")
            .workers("actor", 7, "cpu", "1", Resource.GPU, "1")
            .stage(Stage.RUNNING)
            .runningSince(T0)
            .placed(name + "-learner", here);
    for (int i = 0; i < 7; i++) {
      job.placed(name + "-actor-" + i, i < 3 ? here : next);
    }
    return job.build();
  }

  /** A running job of 1-GPU pods on one node, its workers all its minimum. */
  private static Fixtures.JobBuilder runningOneGpuPods(
      String name, String queue, int workers, String node) {
    return job(name)
        .queue(queue)
        .minWorkers(workers)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", workers, "cpu", "1", Resource.GPU, "1")
        .running(node, workers)
        .stage(Stage.RUNNING);
  }

  private static JobInfo filler(String name, String node) {
    return job(name)
        .queue("filler")
        .minWorkers(0)
        .leader("cpu", "4")
        .running(node, 0)
        .stage(Stage.RUNNING)
        .build();
  }

  private static long gpus(ClusterSimulator simulator, CycleResult result, String queue) {
    return DecisionChecks.wholeGpusByQueue(simulator.lastSnapshot(), result)
        .getOrDefault(queue, 0L);
  }

  private static JobInfo elastic(
      String name, String queue, int gpus, int minWorkers, int createdSecond) {
    return job(name)
        .queue(queue)
        .created(T0.plusSeconds(createdSecond))
        .minWorkers(minWorkers)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1")
        .build();
  }
}
