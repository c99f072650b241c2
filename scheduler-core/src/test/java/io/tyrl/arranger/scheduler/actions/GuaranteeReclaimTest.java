package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedJobs;
import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedNodes;
import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedQueues;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.sim.Fixtures;
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
    return Fixtures.scheduler()
        .runCycle(
            new Snapshot(fragmentedNodes(), fragmentedJobs(), queues),
            Fixtures.defaultConfiguration(),
            T0.plusSeconds(3600));
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
}
