package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedJobs;
import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedNodes;
import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedQueues;
import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reclaim for a guarantee, in one cycle of the default configuration, on two nodes of 4 GPUs whose
 * free room is in pieces (1 GPU free on g0, 2 on g1): queue a waits for a 4-GPU learner; b holds 3
 * (2 on g0, 1 on g1) and c 2 (1 on each), both asking for more. b is 1 above its share of 2, c at
 * its own, so reclaim proper frees at most 1 GPU on a node, and no free room is left to move
 * anything into.
 */
class GuaranteeReclaimTest {

  private static CycleResult cycle(List<QueueInfo> queues) {
    return cycle(fragmentedNodes(), fragmentedJobs(), queues);
  }

  private static CycleResult cycle(
      List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues) {
    return Fixtures.scheduler()
        .runCycle(
            new Snapshot(nodes, jobs, queues),
            Fixtures.defaultConfiguration(),
            T0.plusSeconds(3600));
  }

  /** A running job of one pod of {@code gpus} GPUs on the node. */
  static JobInfo holding(String name, String queue, int gpus, String node) {
    return job(name)
        .queue(queue)
        .minWorkers(0)
        .leader("cpu", "1", Resource.GPU, String.valueOf(gpus))
        .running(node, 0)
        .stage(Stage.RUNNING)
        .build();
  }

  /**
   * Guaranteed 4, a takes g1 whole: b's and c's jobs there (fewer pods than on g0), though c is
   * within its share; each victim is told it went for a's guarantee.
   */
  @Test
  void aQueueBelowItsGuaranteeTakesANodeFromQueuesAboveTheirGuarantees() {
    CycleResult result = cycle(fragmentedQueues("4"));

    List<Victim> victims = result.victimsFor("default/learner");
    assertThat(victims)
        .extracting(Victim::jobKey)
        .containsExactlyInAnyOrder("default/b2", "default/c2");
    assertThat(victims).allSatisfy(victim -> assertThat(victim.wholeJob()).isTrue());
    assertThat(victims)
        .allSatisfy(
            victim ->
                assertThat(victim.reason())
                    .startsWith("reclaimed by queue a (below its guarantee) for default/learner")
                    .endsWith("holds more than its guarantee"));
    assertThat(victims).extracting(Victim::cause).containsOnly(ReasonCode.RECLAIMED);
    assertThat(result.decision("default/learner").reason())
        .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /** With b and c not {@code reclaimable}, nothing is taken from them for a's guarantee either. */
  @Test
  void aQueueThatIsNotReclaimableGivesNothingForAGuarantee() {
    CycleResult result =
        cycle(
            List.of(
                queue("a").guarantee(Resource.GPU, "4").build(),
                queue("b").reclaimable(false).build(),
                queue("c").reclaimable(false).build()));

    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * b guaranteed 3 (all it holds) and c 1: c may give one GPU, b none, and no node frees 4 that
   * way. Nothing is evicted: a guarantee is never taken for another's.
   */
  @Test
  void aVictimsQueueKeepsItsOwnGuarantee() {
    CycleResult result =
        cycle(
            List.of(
                queue("a").guarantee(Resource.GPU, "4").build(),
                queue("b").guarantee(Resource.GPU, "3").build(),
                queue("c").guarantee(Resource.GPU, "1").build()));

    assertThat(result.allVictims()).isEmpty();
    assertThat(result.decision("default/learner").reason())
        .isNotEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /**
   * The tiers' veto holds: with b2 a {@code kube-system} job, which conformance spares, a takes g0
   * instead (b1 and c1, one more pod than on g1).
   */
  @Test
  void theTiersVetoHoldsForAGuarantee() {
    List<JobInfo> jobs = new ArrayList<>();
    for (JobInfo job : fragmentedJobs()) {
      jobs.add(
          job.name().equals("b2")
              ? job("b2")
                  .namespace("kube-system")
                  .queue("b")
                  .minWorkers(0)
                  .leader("cpu", "1", Resource.GPU, "1")
                  .running("g1", 0)
                  .stage(Stage.RUNNING)
                  .build()
              : job);
    }

    CycleResult result = cycle(fragmentedNodes(), jobs, fragmentedQueues("4"));

    assertThat(result.victimsFor("default/learner"))
        .extracting(Victim::jobKey)
        .containsExactlyInAnyOrder("default/b1", "default/c1");
  }

  /**
   * a, guaranteed 4 and weighing 1 against b's and c's 8, deserves 4. Its NonStrict job holds its
   * 1-GPU worker on g0 (which it fills) and waits for its 4-GPU learner, which would take a to 5,
   * above its share: a holds less than its guarantee, but the learner does not take for it, and
   * nothing is evicted (b is 1 above its share, which frees 4 on no node). Taken for the guarantee,
   * that room would be the next room reclaim proper takes back from a.
   */
  @Test
  void aPodThatWouldTakeItsQueueAboveItsShareTakesNothingForTheGuarantee() {
    List<JobInfo> jobs = new ArrayList<>();
    for (JobInfo job : fragmentedJobs()) {
      if (!job.name().equals("learner")) {
        jobs.add(job);
      }
    }
    jobs.add(
        job("learner")
            .queue("a")
            .gang(GangMode.NON_STRICT)
            .minWorkers(1)
            .leader("cpu", "1", Resource.GPU, "4")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
            .placed("learner-actor-0", "g0")
            .stage(Stage.STARTING)
            .build());
    List<QueueInfo> queues =
        List.of(
            queue("a").guarantee(Resource.GPU, "4").build(),
            queue("b").weight(8).build(),
            queue("c").weight(8).build());

    CycleResult result = cycle(fragmentedNodes(), jobs, queues);

    assertThat(wholeGpus(result.queues().get("a").deserved().get(Resource.GPU))).isEqualTo(4);
    assertThat(wholeGpus(result.queues().get("a").allocated().get(Resource.GPU))).isEqualTo(1);
    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * A tree on two nodes of 4 GPUs: department r, guaranteed 4, holds it through team x (guaranteed
   * nothing, 2 GPUs on each node), while its team a, guaranteed 4, waits for a 4-GPU learner;
   * department p, weighing 10 and at its share, holds 2 GPUs on each node. a may take x's pods, its
   * sibling's, but not p's: r holds its guarantee, so a takes from its own department only, and x's
   * pods free 2 GPUs on a node. Nothing is evicted.
   */
  @Test
  void aTeamTakesFromAnotherDepartmentOnlyWhenItsOwnIsBelowItsGuarantee() {
    List<NodeInfo> nodes =
        List.of(
            node("g0").cpu("64").memory("256Gi").gpu(4).build(),
            node("g1").cpu("64").memory("256Gi").gpu(4).build());
    List<JobInfo> jobs =
        List.of(
            job("learner").queue("a").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build(),
            holding("x0", "x", 2, "g0"),
            holding("x1", "x", 2, "g1"),
            holding("p0", "p", 2, "g0"),
            holding("p1", "p", 2, "g1"),
            job("p-more").queue("p").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build());
    List<QueueInfo> tree =
        List.of(
            queue("r").guarantee(Resource.GPU, "4").build(),
            queue("p").weight(10).build(),
            queue("a").parent("r").guarantee(Resource.GPU, "4").build(),
            queue("x").parent("r").build());
    List<QueueInfo> rShort =
        List.of(
            queue("r").guarantee(Resource.GPU, "6").build(),
            queue("p").weight(10).build(),
            queue("a").parent("r").guarantee(Resource.GPU, "4").build(),
            queue("x").parent("r").guarantee(Resource.GPU, "2").build());

    List<QueueInfo> rShortXAtItsGuaranteeOnGiving =
        List.of(
            queue("r").guarantee(Resource.GPU, "7").build(),
            queue("p").weight(10).build(),
            queue("a").parent("r").guarantee(Resource.GPU, "4").build(),
            queue("x").parent("r").guarantee(Resource.GPU, "3").build());

    CycleResult result = cycle(nodes, jobs, tree);
    CycleResult whenRIsShort = cycle(nodes, jobs, rShort);
    CycleResult whenXWouldFallBelowItsGuarantee = cycle(nodes, jobs, rShortXAtItsGuaranteeOnGiving);

    assertThat(result.allVictims()).isEmpty();
    assertThat(whenXWouldFallBelowItsGuarantee.allVictims()).isEmpty();
    assertThat(whenRIsShort.victimsFor("default/learner"))
        .extracting(Victim::jobKey)
        .containsExactlyInAnyOrder("default/x0", "default/p0");
  }

  /**
   * Two nodes of 4 GPUs and 4 cpu. a, guaranteed 4 and weighing 4 (so that its cpu share holds the
   * learner's), waits for a learner of 4 GPUs and 3 cpu. g0 holds b1 (2 GPUs) and c1, a {@code
   * kube-system} job conformance spares; g1 holds b2 and c2 (1 GPU and 1 cpu each) and d1, a job of
   * queue d asking 2 cpu and no GPU. Only g1 could hold the learner, and only without d1 too; but
   * d1 frees no GPU, which is all a takes for its guarantee: nothing is evicted.
   */
  @Test
  void aGuaranteeOfGpusTakesNoJobThatFreesNone() {
    List<NodeInfo> nodes =
        List.of(
            node("g0").cpu("4").memory("64Gi").gpu(4).build(),
            node("g1").cpu("4").memory("64Gi").gpu(4).build());
    List<JobInfo> jobs =
        List.of(
            job("learner").queue("a").minWorkers(0).leader("cpu", "3", Resource.GPU, "4").build(),
            job("b1")
                .queue("b")
                .minWorkers(1)
                .leader("cpu", "1", Resource.GPU, "1")
                .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
                .running("g0", 1)
                .stage(Stage.RUNNING)
                .build(),
            job("c1")
                .namespace("kube-system")
                .queue("c")
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "1")
                .running("g0", 0)
                .stage(Stage.RUNNING)
                .build(),
            holding("b2", "b", 1, "g1"),
            holding("c2", "c", 1, "g1"),
            job("d1")
                .queue("d")
                .minWorkers(0)
                .leader("cpu", "2")
                .running("g1", 0)
                .stage(Stage.RUNNING)
                .build(),
            job("b-more").queue("b").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build(),
            job("c-more").queue("c").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build());
    List<QueueInfo> queues =
        List.of(
            queue("a").guarantee(Resource.GPU, "4").weight(4).build(),
            queue("b").build(),
            queue("c").build(),
            queue("d").build());

    CycleResult result = cycle(nodes, jobs, queues);

    assertThat(result.decision("default/learner").reason())
        .as("enqueued, it reaches reclaim")
        .isNotEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.allVictims()).isEmpty();
  }
}
