package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Preemption inside a queue on one full node of 8 cpu. Running there: {@code elastic} (priority 3,
 * leader + 3 workers, minimum 1 worker, so 2 workers spare) and {@code rigid} (priority 2, leader +
 * 3 workers, minimum 3, nothing spare); every pod asks 1 cpu.
 */
class PreemptActionTest {

  private static NodeInfo full() {
    return node("n").cpu("8").memory("64Gi").build();
  }

  private static Fixtures.JobBuilder elastic() {
    return job("elastic")
        .priority(3)
        .minWorkers(1)
        .leader("cpu", "1")
        .workers("w", 3, "cpu", "1")
        .running("n", 3);
  }

  private static Fixtures.JobBuilder rigid() {
    return job("rigid")
        .priority(2)
        .created(T0.plusSeconds(1))
        .minWorkers(3)
        .leader("cpu", "1")
        .workers("w", 3, "cpu", "1")
        .running("n", 3);
  }

  private static JobInfo high(int minWorkers) {
    return job("high")
        .priority(8)
        .created(T0.plusSeconds(5))
        .minWorkers(minWorkers)
        .leader("cpu", "1")
        .workers("w", 6, "cpu", "1")
        .build();
  }

  private static CycleResult cycle(List<JobInfo> jobs) {
    return cycle(jobs, Fixtures.preemptingConfiguration());
  }

  private static CycleResult cycle(List<JobInfo> jobs, SchedulerConfiguration configuration) {
    Snapshot snapshot = new Snapshot(List.of(full()), jobs, List.of());
    CycleResult result = Fixtures.scheduler().runCycle(snapshot, configuration, T0.plusSeconds(60));
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
    return result;
  }

  /** Victim job → its evicted pods (sorted), "whole:" prefixed when the job goes whole. */
  private static Map<String, String> victims(CycleResult result, String preemptor) {
    Map<String, String> byJob = new TreeMap<>();
    for (Victim victim : result.victimsFor(preemptor)) {
      List<String> pods = new ArrayList<>(victim.pods());
      pods.sort(String::compareTo);
      byJob.put(victim.job(), (victim.wholeJob() ? "whole:" : "") + String.join(",", pods));
    }
    return byJob;
  }

  static Stream<Arguments> highPriorityGangOnAFullCluster() {
    return Stream.of(
        Arguments.of(
            "minimum of 2 pods: one elastic worker each, the last workers first",
            1,
            Map.of("elastic", "elastic-w-1,elastic-w-2")),
        Arguments.of(
            "minimum of 3 pods: elastic workers cannot make room, the lowest-priority gang goes whole",
            2,
            Map.of("rigid", "whole:rigid-learner,rigid-w-0,rigid-w-1,rigid-w-2")),
        Arguments.of(
            "minimum of 5 pods: the whole low gang and one elastic worker; the second worker is spared",
            4,
            Map.of(
                "rigid",
                "whole:rigid-learner,rigid-w-0,rigid-w-1,rigid-w-2",
                "elastic",
                "elastic-w-2")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void highPriorityGangOnAFullCluster(
      String scenario, int minWorkers, Map<String, String> expectedVictims) {
    CycleResult result = cycle(List.of(elastic().build(), rigid().build(), high(minWorkers)));

    assertThat(victims(result, "default/high")).isEqualTo(expectedVictims);
    JobDecision preemptor = result.decision("default/high");
    assertThat(preemptor.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(preemptor.allocations()).as("pipelined pods are not allocations").isEmpty();
    assertThat(preemptor.reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
    assertThat(preemptor.message())
        .startsWith("leader+" + minWorkers + "/6 workers pipelined onto resources being released")
        .contains("to be evicted");
    for (String victim : expectedVictims.keySet()) {
      JobDecision decision = result.decision("default/" + victim);
      assertThat(decision.reason()).isEqualTo(ReasonCode.PREEMPTED);
      assertThat(decision.message()).contains("preempted by default/high (priority 8 > ");
      for (String pod : expectedVictims.get(victim).replace("whole:", "").split(",")) {
        assertThat(decision.allocations()).doesNotContainKey(pod);
      }
    }
  }

  @Test
  void preemptAfterAllocateAsInVolcanoChoosesTheSameVictims() {
    SchedulerConfiguration volcanoOrder =
        Fixtures.configuration(
            DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML.replace(
                "enqueue, reclaim, preempt, allocate, backfill",
                "enqueue, reclaim, allocate, backfill, preempt"));

    CycleResult result = cycle(List.of(elastic().build(), rigid().build(), high(4)), volcanoOrder);

    assertThat(victims(result, "default/high"))
        .isEqualTo(
            Map.of(
                "rigid",
                "whole:rigid-learner,rigid-w-0,rigid-w-1,rigid-w-2",
                "elastic",
                "elastic-w-2"));
    assertThat(result.decision("default/high").reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  @Test
  void idleRoomThePreemptorCountsOnIsNotGivenToAnotherJobInTheSameCycle() {
    JobInfo low =
        job("low")
            .priority(2)
            .minWorkers(5)
            .leader("cpu", "1")
            .workers("w", 5, "cpu", "1")
            .running("n", 5)
            .build();
    JobInfo whole =
        job("high")
            .priority(8)
            .minWorkers(7)
            .leader("cpu", "1")
            .workers("w", 7, "cpu", "1")
            .build();
    JobInfo small =
        job("small")
            .queue("other")
            .created(T0.plusSeconds(9))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("w", 1, "cpu", "1")
            .build();
    Snapshot snapshot =
        new Snapshot(
            List.of(full()),
            List.of(low, whole, small),
            List.of(Fixtures.queue("default").build(), Fixtures.queue("other").build()));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.preemptingConfiguration(), T0.plusSeconds(60));

    assertThat(victims(result, "default/high"))
        .isEqualTo(Map.of("low", "whole:low-learner,low-w-0,low-w-1,low-w-2,low-w-3,low-w-4"));
    assertThat(result.decision("default/small").allocations())
        .as("the 2 idle cpu are promised to the preemptor")
        .isEmpty();
    assertThat(result.decision("default/small").message()).contains("1 Insufficient cpu");
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
  }

  @Test
  void elasticVictimKeepsItsMinimumAndStaysPartlyScheduled() {
    CycleResult result = cycle(List.of(elastic().build(), rigid().build(), high(1)));

    JobDecision victim = result.decision("default/elastic");
    assertThat(victim.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(victim.allocations()).containsOnlyKeys("elastic-learner", "elastic-w-0");
    assertThat(result.decision("default/rigid").allocations()).hasSize(4);
  }

  @Test
  void aMinimumThatCannotFitEvenAfterEveryEligibleVictimEvictsNobody() {
    JobInfo tooBig =
        job("high")
            .priority(8)
            .minWorkers(8)
            .leader("cpu", "1")
            .workers("w", 8, "cpu", "1")
            .build();

    CycleResult result = cycle(List.of(elastic().build(), rigid().build(), tooBig));

    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/elastic").allocations()).hasSize(4);
    assertThat(result.decision("default/rigid").allocations()).hasSize(4);
    assertThat(result.decision("default/high").reason())
        .as("a full queue cannot hold it without evictions")
        .isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/high").message())
        .contains("evicting lower-priority pods would not make room for its gang minimum");
  }

  @Test
  void anOptedOutJobIsNeverAVictim() {
    JobInfo protectedRigid = rigid().preemptable(false).build();

    CycleResult needsOneWholeJob = cycle(List.of(elastic().build(), protectedRigid, high(2)));

    assertThat(victims(needsOneWholeJob, "default/high"))
        .as("the opted-out gang is spared; the other goes whole")
        .isEqualTo(Map.of("elastic", "whole:elastic-learner,elastic-w-0,elastic-w-1,elastic-w-2"));

    CycleResult needsBoth = cycle(List.of(elastic().build(), protectedRigid, high(4)));

    assertThat(needsBoth.victims())
        .as("room only by evicting the opted-out job: nobody is evicted")
        .isEmpty();
  }

  @Test
  void equalOrHigherPriorityIsNeverPreempted() {
    JobInfo peer =
        job("peer")
            .priority(3)
            .created(T0.plusSeconds(9))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("w", 1, "cpu", "1")
            .build();

    CycleResult result =
        cycle(List.of(elastic().priority(3).build(), rigid().priority(5).build(), peer));

    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/elastic").allocations()).hasSize(4);
  }

  @Test
  void protectedNamespacesAreSparedByConformanceWhenOthersCanMakeRoom() {
    JobInfo system = rigid().namespace("kube-system").priority(1).build();

    CycleResult result = cycle(List.of(elastic().build(), system, high(2)));

    assertThat(result.victimsFor("default/high"))
        .extracting(Victim::jobKey)
        .containsExactly("default/elastic");
  }

  @Test
  void aVictimStillReleasingCountsAsFreedSoTheSamePreemptorEvictsNobodyNew() {
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            Fixtures.preemptingConfiguration(),
            List.of(full()),
            List.of(elastic().build(), rigid().build(), high(2)),
            List.of(),
            1);

    CycleResult chosen = simulator.cycle(T0.plusSeconds(60));
    CycleResult releasing = simulator.cycle(T0.plusSeconds(61));
    CycleResult placed = simulator.cycle(T0.plusSeconds(62));

    assertThat(chosen.victimsFor("default/high"))
        .extracting(Victim::jobKey)
        .containsExactly("default/rigid");
    assertThat(releasing.victims())
        .as("the rigid pods are still terminating; nothing else is evicted")
        .isEmpty();
    assertThat(releasing.decision("default/high").reason())
        .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
    assertThat(releasing.decision("default/high").message())
        .contains("pods already being released on n");
    assertThat(releasing.decision("default/rigid").allocations()).isEmpty();
    assertThat(placed.victims()).isEmpty();
    assertThat(placed.decision("default/high").state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(placed.decision("default/high").allocations()).hasSize(4);
    assertThat(placed.decision("default/elastic").allocations()).hasSize(4);
  }

  @Test
  void aJobThatFitsWithoutEvictionIsLeftToAllocate() {
    NodeInfo roomy = node("n").cpu("16").memory("64Gi").build();
    Snapshot snapshot =
        new Snapshot(
            List.of(roomy), List.of(elastic().build(), rigid().build(), high(2)), List.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.preemptingConfiguration(), T0.plusSeconds(60));

    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/high").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/high").allocations()).hasSize(7);
  }

  @Test
  void theDefaultConfigurationDoesNotPreempt() {
    Snapshot snapshot =
        new Snapshot(
            List.of(full()), List.of(elastic().build(), rigid().build(), high(1)), List.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(60));

    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/high").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
  }
}
