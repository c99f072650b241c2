package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reclaim gathering free room in pieces onto one node, in one cycle of the default configuration:
 * two nodes of 8 GPUs, each with one small job of queue b (at its share), and queue a, guaranteed
 * 8, waiting for an 8-GPU learner. 14 GPUs are free, but 7 on each node. Where a test shows what
 * moves do not do, a has no guarantee: reclaim for a guarantee takes what no move can
 * (GuaranteeReclaimTest).
 */
class ConsolidationTest {

  private static final Instant STARTED = T0.plusSeconds(100);

  private static List<NodeInfo> twoNodes() {
    return List.of(gpuNode("g0"), gpuNode("g1"));
  }

  private static NodeInfo gpuNode(String name) {
    return node(name).cpu("64").memory("256Gi").gpu(8).build();
  }

  private static JobInfo learner() {
    return job("learner").queue("a").minWorkers(0).leader("cpu", "1", Resource.GPU, "8").build();
  }

  /** A 1-GPU job of queue b (the name must start with b). */
  private static Fixtures.JobBuilder small(String name, String node) {
    return running(name, 0).leader("cpu", "1", Resource.GPU, "1").running(node, 0);
  }

  private static List<QueueInfo> queues(Duration reclaimMinRuntimeOfB) {
    return List.of(
        queue("a").guarantee(Resource.GPU, "8").build(),
        queue("b").reclaimMinRuntime(reclaimMinRuntimeOfB).build());
  }

  private static CycleResult cycle(List<JobInfo> jobs, List<QueueInfo> queues, Instant now) {
    return Fixtures.scheduler()
        .runCycle(new Snapshot(twoNodes(), jobs, queues), Fixtures.defaultConfiguration(), now);
  }

  /** Three nodes of 8 GPUs; a guaranteed 8, b and c nothing; a minute after the jobs started. */
  private static CycleResult cycleOnThreeNodes(List<JobInfo> jobs) {
    return Fixtures.scheduler()
        .runCycle(
            new Snapshot(List.of(gpuNode("g0"), gpuNode("g1"), gpuNode("g2")), jobs, threeQueues()),
            Fixtures.defaultConfiguration(),
            STARTED.plusSeconds(60));
  }

  /** As {@link #threeQueues}, a guaranteed nothing. */
  private static List<QueueInfo> unguaranteedQueues() {
    return List.of(queue("a").build(), queue("b").build(), queue("c").build());
  }

  private static List<QueueInfo> threeQueues() {
    return List.of(
        queue("a").guarantee(Resource.GPU, "8").build(), queue("b").build(), queue("c").build());
  }

  /** A job of the queue its name starts with, running since {@link #STARTED}. */
  private static Fixtures.JobBuilder running(String name, int minWorkers) {
    return job(name)
        .queue(name.substring(0, 1))
        .minWorkers(minWorkers)
        .stage(Stage.RUNNING)
        .runningSince(STARTED);
  }

  @Test
  void aJobThatFitsElsewhereMovesSoThatTheLearnerFindsOneNodeWithRoom() {
    CycleResult result =
        cycle(
            List.of(learner(), small("b1", "g0").build(), small("b2", "g1").build()),
            queues(Duration.ZERO),
            STARTED.plusSeconds(60));

    List<Victim> victims = result.victimsFor("default/learner");
    assertThat(victims).hasSize(1);
    assertThat(victims.get(0).wholeJob()).isTrue();
    assertThat(victims.get(0).jobKey()).isIn("default/b1", "default/b2");
    assertThat(victims.get(0).cause()).isEqualTo(ReasonCode.RECLAIMED);
    assertThat(victims.get(0).reason())
        .startsWith("reclaimed by queue a (below its deserved share) for default/learner")
        .contains("fits elsewhere in free room now");
    assertThat(result.decision("default/learner").reason())
        .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  @Test
  void reclaimMovesNobodyWhenConsolidationIsTurnedOff() {
    SchedulerConfiguration withoutMoves =
        Fixtures.configuration(
            DefaultSchedulerConfiguration.YAML
                + "configurations:\n"
                + "  - name: reclaim\n"
                + "    arguments: {consolidate: false}\n");

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    twoNodes(),
                    List.of(learner(), small("b1", "g0").build(), small("b2", "g1").build()),
                    unguaranteedQueues()),
                withoutMoves,
                STARTED.plusSeconds(60));

    assertThat(result.allVictims()).isEmpty();
  }

  @Test
  void aJobWithNoFreeRoomElsewhereStaysAndNothingIsEvicted() {
    // b1 holds a GPU on each node: moved, its pods would need a third node.
    JobInfo spanning =
        job("b1")
            .queue("b")
            .minWorkers(1)
            .leader("cpu", "1", Resource.GPU, "1")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
            .placed("b1-learner", "g0")
            .placed("b1-actor-0", "g1")
            .stage(Stage.RUNNING)
            .runningSince(STARTED)
            .build();

    CycleResult result =
        cycle(List.of(learner(), spanning), unguaranteedQueues(), STARTED.plusSeconds(60));

    assertThat(result.allVictims()).isEmpty();
    assertThat(result.decision("default/learner").reason())
        .isNotEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  @Test
  void aJobIsMovedOnlyOnceItsQueuesReclaimMinRuntimeHasPassed() {
    List<JobInfo> jobs = List.of(learner(), small("b1", "g0").build(), small("b2", "g1").build());

    CycleResult early =
        cycle(jobs, queues(Duration.ofMinutes(10)), STARTED.plus(Duration.ofMinutes(9)));
    CycleResult late =
        cycle(jobs, queues(Duration.ofMinutes(10)), STARTED.plus(Duration.ofMinutes(10)));

    assertThat(early.allVictims()).isEmpty();
    assertThat(late.allVictims()).extracting(Victim::wholeJob).containsExactly(true);
  }

  @Test
  void whatAQueueHoldsWithinItsGuaranteeIsNotMoved() {
    List<JobInfo> jobs = List.of(learner(), small("b1", "g0").build(), small("b2", "g1").build());
    List<QueueInfo> guaranteed =
        List.of(
            queue("a").guarantee(Resource.GPU, "8").build(),
            queue("b").guarantee(Resource.GPU, "2").build());
    List<QueueInfo> halfGuaranteed =
        List.of(
            queue("a").guarantee(Resource.GPU, "8").build(),
            queue("b").guarantee(Resource.GPU, "1").build());

    List<QueueInfo> memoryGuaranteed =
        List.of(
            queue("a").guarantee(Resource.GPU, "8").build(),
            queue("b").guarantee("memory", "100Gi").build());

    CycleResult within = cycle(jobs, guaranteed, STARTED.plusSeconds(60));
    CycleResult above = cycle(jobs, halfGuaranteed, STARTED.plusSeconds(60));
    CycleResult belowInWhatItKeeps = cycle(jobs, memoryGuaranteed, STARTED.plusSeconds(60));

    assertThat(within.allVictims()).isEmpty();
    assertThat(above.allVictims())
        .as("b keeps its guarantee of 1 exactly")
        .extracting(Victim::wholeJob)
        .containsExactly(true);
    assertThat(belowInWhatItKeeps.allVictims())
        .as("b is below its memory guarantee, but a move takes none of its memory")
        .hasSize(1);
  }

  @Test
  void theTiersVetoStillHoldsForAMove() {
    CycleResult result =
        cycle(
            List.of(
                learner(),
                small("b1", "g0").namespace("kube-system").build(),
                small("b2", "g1").build()),
            queues(Duration.ZERO),
            STARTED.plusSeconds(60));

    assertThat(result.allVictims()).extracting(Victim::jobKey).containsExactly("default/b2");
  }

  @Test
  void aQueueAtItsShareMovesNobody() {
    // a (weight 1) holds 4 GPUs, its share beside b's (weight 3) 12; b's new job fits as it is.
    JobInfo running =
        job("a-running")
            .queue("a")
            .minWorkers(0)
            .leader("cpu", "1", Resource.GPU, "4")
            .running("g0", 0)
            .stage(Stage.RUNNING)
            .runningSince(STARTED)
            .build();
    JobInfo growing =
        job("b-more")
            .queue("b")
            .minWorkers(0)
            .leader("cpu", "1", Resource.GPU, "1")
            .workers("actor", 10, "cpu", "1", Resource.GPU, "1")
            .build();
    List<QueueInfo> queues = List.of(queue("a").build(), queue("b").weight(3).build());

    CycleResult result =
        cycle(
            List.of(running, learner(), small("b2", "g1").build(), growing),
            queues,
            STARTED.plusSeconds(60));

    assertThat(result.queues().get("a").deserved().get(Resource.GPU)).isEqualTo(4_000);
    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * Three nodes of 8 GPUs and 64 cpu. Gathering on g0 would move b-wide (2 pods, 4 cpu each, one on
   * g0 and one on g2), on g1 b-multi (3 pods of 20 cpu). b-wide is the cheaper plan, but its pods
   * fit nowhere else (g1 has 4 cpu free, g2 is full); b-multi fits on g0 exactly (60 cpu).
   */
  @Test
  void theNodeWhoseVictimsCanMoveIsChosenOverACheaperOneWhoseCannot() {
    JobInfo wide =
        running("b-wide", 1)
            .leader("cpu", "4", Resource.GPU, "1")
            .workers("actor", 1, "cpu", "4", Resource.GPU, "1")
            .placed("b-wide-learner", "g0")
            .placed("b-wide-actor-0", "g2")
            .build();
    JobInfo multi =
        running("b-multi", 2)
            .leader("cpu", "20", Resource.GPU, "1")
            .workers("actor", 2, "cpu", "20", Resource.GPU, "1")
            .running("g1", 2)
            .build();

    CycleResult result =
        cycleOnThreeNodes(List.of(learner(), wide, multi, gpuHolder("c-full", "g2", 7)));

    assertThat(result.allVictims()).extracting(Victim::jobKey).containsExactly("default/b-multi");
  }

  /**
   * Gathering on g0 would move b1 and b2 (30 cpu each) to g1, where 40 cpu are free: each fits
   * alone, not both. c-job on g1 (24 cpu) fits nowhere else. Nothing moves.
   */
  @Test
  void jobsThatFitElsewhereOnlyOneAtATimeAreNotMovedTogether() {
    JobInfo cJob =
        running("c-job", 0).leader("cpu", "24", Resource.GPU, "2").running("g1", 0).build();

    CycleResult result =
        cycle(
            List.of(learner(), cpuHeavy("b1", "g0", 30), cpuHeavy("b2", "g0", 30), cJob),
            unguaranteedQueues(),
            STARTED.plusSeconds(60));

    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * Gathering on g0 moves b-pair (a 4-GPU leader and a 1-GPU actor) into room in pieces: g1 has 4
   * GPUs free, g2 1. Largest first, the leader takes g1 and the actor g2; in victim order (workers
   * before the leader) the actor would take g1 first and leave the leader no room.
   */
  @Test
  void theLargestPodOfAMovedJobFindsItsRoomFirst() {
    JobInfo pair =
        running("b-pair", 1)
            .leader("cpu", "1", Resource.GPU, "4")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
            .running("g0", 1)
            .build();

    CycleResult result =
        cycleOnThreeNodes(
            List.of(learner(), pair, gpuHolder("c1", "g1", 4), gpuHolder("c2", "g2", 7)));

    assertThat(result.allVictims()).extracting(Victim::jobKey).containsExactly("default/b-pair");
  }

  /**
   * A learner whose elastic workers (minimum 0) need not be placed for it to start: 11 GPUs are
   * free (7 and 4), enough for the learner alone, not with one worker.
   */
  @Test
  void onlyWhatTheMinimumStillNeedsMustFitInTheFreeRoom() {
    JobInfo elasticLearner =
        job("learner")
            .queue("a")
            .minWorkers(0)
            .leader("cpu", "1", Resource.GPU, "8")
            .workers("actor", 2, "cpu", "1", Resource.GPU, "4")
            .build();

    // b (weight 3) holds all it asks for, 5 GPUs, its share: nothing to reclaim from it.
    List<QueueInfo> queues =
        List.of(queue("a").guarantee(Resource.GPU, "8").build(), queue("b").weight(3).build());

    CycleResult result =
        cycle(
            List.of(elasticLearner, small("b1", "g0").build(), gpuHolder("b2", "g1", 4)),
            queues,
            STARTED.plusSeconds(60));

    assertThat(result.queues().get("b").deserved().get(Resource.GPU)).isEqualTo(5_000);

    assertThat(result.victimsFor("default/learner")).hasSize(1);
  }

  private static JobInfo cpuHeavy(String name, String node, int cpu) {
    return running(name, 0)
        .leader("cpu", Integer.toString(cpu), Resource.GPU, "1")
        .running(node, 0)
        .build();
  }

  private static JobInfo gpuHolder(String name, String node, int gpus) {
    return running(name, 0)
        .leader("cpu", "1", Resource.GPU, Integer.toString(gpus))
        .running(node, 0)
        .build();
  }
}
