package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class GangPluginTest {

  /** Gang alone in the first tier, drf (which also judges preemption victims) in the second. */
  private static final SchedulerConfiguration GANG_BEFORE_DRF =
      Fixtures.configuration(
          """
      actions: "enqueue, preempt, allocate"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: nodeorder
      """);

  /**
   * Gang alone in the first tier, conformance (which spares kube-system from reclaim) in the
   * second.
   */
  private static final SchedulerConfiguration GANG_BEFORE_CONFORMANCE =
      Fixtures.configuration(
          """
      actions: "enqueue, reclaim, allocate"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: conformance
            - name: predicates
            - name: proportion
            - name: nodeorder
      """);

  /**
   * Gang offers a victim function for reclaim too, so its tier decides there as well: on 3 cpu, the
   * kube-system job big holds all 3 in a queue deserving 2; the other queue's 1-cpu job takes an
   * elastic worker back, though the later tier's conformance would have spared it.
   */
  @Test
  void gangsTierDecidesReclaimVictimsBeforeALaterTiersConformance() {
    var big =
        job("big")
            .namespace("kube-system")
            .queue("over")
            .minWorkers(0)
            .leader("cpu", "1")
            .workers("w", 2, "cpu", "1")
            .running("n1", 2)
            .build();
    var reclaimer = job("r").queue("under").minWorkers(0).leader("cpu", "1").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(node("n1").cpu("3").memory("16Gi").build()),
                    List.of(big, reclaimer),
                    List.of(Fixtures.queue("over").build(), Fixtures.queue("under").build())),
                GANG_BEFORE_CONFORMANCE,
                T0.plusSeconds(2000));

    assertThat(result.victims()).containsOnlyKeys("default/r");
    assertThat(result.victims().get("default/r"))
        .extracting(Victim::pods)
        .containsExactly(List.of("big-w-1"));
  }

  /**
   * The first tier offering victim functions decides which pods may go, and gang offers one for
   * preemption. On 4 cpu, low (priority 1) holds 3 with two elastic workers; high (priority 9)
   * needs 2. Drf alone would refuse: high's share after (2/4) is not below low's after (2/4). Gang
   * allows an elastic worker, and its tier decides.
   */
  @Test
  void gangsTierDecidesPreemptionVictimsBeforeALaterTiersDrf() {
    var low =
        job("low")
            .priority(1)
            .minWorkers(0)
            .leader("cpu", "1")
            .workers("w", 2, "cpu", "1")
            .running("n1", 2)
            .build();
    var high =
        job("high").priority(9).created(T0.plusSeconds(1)).minWorkers(0).leader("cpu", "2").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(node("n1").cpu("4").memory("16Gi").build()),
                    List.of(low, high),
                    List.of()),
                GANG_BEFORE_DRF,
                T0.plusSeconds(10));

    assertThat(result.victims()).containsOnlyKeys("default/high");
    assertThat(result.victims().get("default/high"))
        .extracting(Victim::pods)
        .containsExactly(List.of("low-w-1"));
  }
}
