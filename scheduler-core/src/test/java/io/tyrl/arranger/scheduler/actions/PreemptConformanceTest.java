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
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Preempt as a table: a snapshot in; the victims, and the preemptor's state and reason out. The
 * rows cover the ground of Volcano's and kube-batch's preempt tests (idle room first, only lower
 * priority, elastic pods before gangs, enough victims for one large pod, a queue's capability, the
 * DRF victim check) in Arranger's terms, plus a named row for each preemption rule a capped queue
 * needs. Every pod asks cpu only; the preemptor is always {@code default/high}, priority 8, in
 * queue {@code q}.
 */
class PreemptConformanceTest {

  /** Tiers of the {@code fair-share} profile (DRF in the first tier), with preempt switched on. */
  private static final String FAIR_SHARE_WITH_PREEMPTION =
      """
      actions: "enqueue, reclaim, preempt, allocate, backfill"
      tiers:
        - plugins:
            - name: drf
            - name: gang
            - name: conformance
        - plugins:
            - name: priority
            - name: predicates
            - name: proportion
            - name: nodeorder
      """;

  /**
   * @param victims victim job → its evicted pods, comma-separated and sorted, {@code whole:} first
   *     when the whole job goes
   */
  record Row(
      String name,
      List<NodeInfo> nodes,
      List<QueueInfo> queues,
      List<JobInfo> jobs,
      SchedulerConfiguration configuration,
      Map<String, String> victims,
      ScheduleState preemptorState,
      ReasonCode preemptorReason) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo cpuNode(String name, int cpu) {
    return node(name).cpu(Integer.toString(cpu)).memory("64Gi").build();
  }

  /**
   * A job of queue q: a leader and {@code workers} workers of 1 cpu each, running on {@code node}
   * when non-null.
   */
  private static Fixtures.JobBuilder inQ(
      String name, int priority, int leaderCpu, int workers, int minWorkers) {
    return job(name)
        .queue("q")
        .priority(priority)
        .minWorkers(minWorkers)
        .leader("cpu", Integer.toString(leaderCpu))
        .workers("w", workers, "cpu", "1");
  }

  private static JobInfo high(int leaderCpu, int workers, int minWorkers) {
    return inQ("high", 8, leaderCpu, workers, minWorkers).created(T0.plusSeconds(1000)).build();
  }

  static Stream<Row> preempt() {
    SchedulerConfiguration standard = Fixtures.preemptingConfiguration();
    List<QueueInfo> uncapped = List.of(queue("q").build());
    return Stream.of(
        new Row(
            "enough idle room: nobody is evicted",
            List.of(cpuNode("n1", 10)),
            uncapped,
            List.of(inQ("low", 2, 1, 1, 1).running("n1", 1).build(), high(1, 1, 1)),
            standard,
            Map.of(),
            ScheduleState.SCHEDULED_SUCCEED,
            null),
        new Row(
            "equal priority is never preempted",
            List.of(cpuNode("n1", 2)),
            uncapped,
            List.of(inQ("peer", 8, 1, 1, 0).running("n1", 1).build(), high(1, 0, 0)),
            standard,
            Map.of(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.NOT_ENQUEUED),
        new Row(
            "an elastic worker goes before any gang, the last worker first",
            List.of(cpuNode("n1", 4)),
            uncapped,
            List.of(inQ("low", 2, 1, 3, 1).running("n1", 3).build(), high(1, 0, 0)),
            standard,
            Map.of("low", "low-w-2"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "enough victims for one large pod, and the opted-out job is spared",
            List.of(cpuNode("n1", 6)),
            uncapped,
            List.of(
                inQ("low", 2, 1, 2, 0).running("n1", 2).build(),
                inQ("keep", 1, 1, 0, 0).preemptable(false).running("n1", 0).build(),
                high(4, 0, 0)),
            standard,
            Map.of("low", "low-w-0,low-w-1"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "in a capped queue a higher-priority job takes a lower-priority one's room under the cap",
            List.of(cpuNode("n1", 12)),
            List.of(queue("q").capability("cpu", "4").build()),
            List.of(inQ("low", 2, 3, 0, 0).running("n1", 0).build(), high(3, 0, 0)),
            standard,
            Map.of("low", "whole:low-learner"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "a capped queue with room under its cap evicts nobody",
            List.of(cpuNode("n1", 12)),
            List.of(queue("q").capability("cpu", "6").build()),
            List.of(inQ("low", 2, 3, 0, 0).running("n1", 0).build(), high(3, 0, 0)),
            standard,
            Map.of(),
            ScheduleState.SCHEDULED_SUCCEED,
            null),
        new Row(
            "under a cap, elastic workers free it before whole jobs, only as much as needed",
            List.of(cpuNode("n1", 12)),
            List.of(queue("q").capability("cpu", "4").build()),
            List.of(inQ("low", 2, 1, 2, 0).running("n1", 2).build(), high(2, 0, 0)),
            standard,
            Map.of("low", "low-w-1"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "when the cheapest node's victims cannot free the cap, another node's do",
            List.of(cpuNode("n1", 4), cpuNode("n2", 4)),
            List.of(queue("q").capability("cpu", "6").build()),
            List.of(
                inQ("elastic", 3, 1, 1, 0).running("n1", 1).build(),
                inQ("rigid", 2, 1, 3, 3).running("n2", 3).build(),
                high(3, 0, 0)),
            standard,
            Map.of("rigid", "whole:rigid-learner,rigid-w-0,rigid-w-1,rigid-w-2"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "under a cap, victims on a full node free it for a pod that fits an idle node",
            List.of(cpuNode("n1", 4), cpuNode("n2", 4)),
            List.of(queue("q").capability("cpu", "4").build()),
            List.of(inQ("low", 2, 4, 0, 0).running("n1", 0).build(), high(2, 0, 0)),
            standard,
            Map.of("low", "whole:low-learner"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "a job whose preemptionPolicy is Never waits in its capped queue and evicts nobody",
            List.of(cpuNode("n1", 12)),
            List.of(queue("q").capability("cpu", "4").build()),
            List.of(
                inQ("low", 2, 3, 0, 0).running("n1", 0).build(),
                inQ("high", 8, 3, 0, 0)
                    .preemptionPolicy(PreemptionPolicy.NEVER)
                    .created(T0.plusSeconds(1000))
                    .build()),
            standard,
            Map.of(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.NOT_ENQUEUED),
        new Row(
            "a new job of a closed queue evicts nobody",
            List.of(cpuNode("n1", 4)),
            List.of(queue("q").closed().build()),
            List.of(inQ("low", 2, 1, 3, 1).running("n1", 3).build(), high(1, 0, 0)),
            standard,
            Map.of(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.NOT_ENQUEUED),
        new Row(
            "a kube-system job is never a victim, even when it alone could make room",
            List.of(cpuNode("n1", 4)),
            uncapped,
            List.of(
                inQ("system", 1, 1, 3, 0).namespace("kube-system").running("n1", 3).build(),
                high(1, 0, 0)),
            standard,
            Map.of(),
            ScheduleState.UNSCHEDULED,
            ReasonCode.NOT_ENQUEUED),
        new Row(
            "without DRF in the deciding tier, the lowest-priority elastic workers go first",
            List.of(cpuNode("n1", 8)),
            uncapped,
            List.of(
                inQ("small", 2, 1, 1, 0).running("n1", 1).build(),
                inQ("big", 3, 1, 5, 1).running("n1", 5).build(),
                high(1, 1, 1)),
            standard,
            Map.of("small", "small-w-0", "big", "big-w-4"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS),
        new Row(
            "with DRF deciding, only a victim whose share stays above the preemptor's goes",
            List.of(cpuNode("n1", 8)),
            uncapped,
            List.of(
                inQ("small", 2, 1, 1, 0).running("n1", 1).build(),
                inQ("big", 3, 1, 5, 1).running("n1", 5).build(),
                high(1, 1, 1)),
            Fixtures.configuration(FAIR_SHARE_WITH_PREEMPTION),
            Map.of("big", "big-w-3,big-w-4"),
            ScheduleState.UNSCHEDULED,
            ReasonCode.WAITING_FOR_VICTIMS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void preempt(Row row) {
    Snapshot snapshot = new Snapshot(row.nodes(), row.jobs(), row.queues());

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, row.configuration(), T0.plusSeconds(2000));

    assertThat(ActionTables.victims(result))
        .isEqualTo(row.victims().isEmpty() ? Map.of() : Map.of("default/high", row.victims()));
    JobDecision preemptor = result.decision("default/high");
    assertThat(preemptor.state()).isEqualTo(row.preemptorState());
    assertThat(preemptor.reason()).isEqualTo(row.preemptorReason());
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
  }
}
