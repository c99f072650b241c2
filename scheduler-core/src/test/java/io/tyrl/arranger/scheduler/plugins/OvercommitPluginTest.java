package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Enqueue compares a job's minimum with the cluster's free room (idle + releasing − pipelined). */
class OvercommitPluginTest {

  private static final SchedulerConfiguration GENEROUS =
      withoutProportion("arguments: {factor: 1.5}");

  /**
   * Without proportion, whose own enqueue check would speak first for a job larger than the
   * cluster.
   */
  private static final SchedulerConfiguration WITHOUT_PROPORTION = withoutProportion("");

  private static SchedulerConfiguration withoutProportion(String overcommitArguments) {
    return Fixtures.configuration(
        """
        actions: "enqueue, allocate"
        tiers:
          - plugins:
              - name: priority
              - name: gang
          - plugins:
              - name: predicates
              - name: overcommit
                %s
              - name: nodeorder
        """
            .formatted(overcommitArguments));
  }

  /** 8 cpu, 6 of them used by other pods ({@code releasing} of those on their way out). */
  private static NodeInfo eightCpuSixUsed(String releasing) {
    return new NodeInfo(
        "n",
        java.util.Map.of(),
        List.of(),
        Resource.of("cpu", "8", "memory", "32Gi", "pods", "110"),
        Resource.of("cpu", "6"),
        Resource.of("cpu", releasing),
        true,
        false,
        3);
  }

  /** Strict gang: leader + 3 workers, 1 cpu each: a minimum of 4 cpu. */
  private static JobInfo gangOfFour(String name, GangMode mode) {
    return job(name)
        .gang(mode)
        .minWorkers(3)
        .leader("cpu", "1")
        .workers("w", 3, "cpu", "1")
        .build();
  }

  private static CycleResult run(
      SchedulerConfiguration configuration, NodeInfo node, JobInfo... jobs) {
    return Fixtures.scheduler()
        .runCycle(new Snapshot(List.of(node), List.of(jobs), List.of()), configuration, T0);
  }

  @Test
  void aMinimumAboveTheFreeRoomIsNotEnqueued() {
    JobDecision decision =
        run(
                Fixtures.defaultConfiguration(),
                eightCpuSixUsed("0"),
                gangOfFour("big", GangMode.STRICT))
            .decision("default/big");

    assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(decision.message())
        .isEqualTo("the cluster's free room cannot hold the job's minimum (cpu 4 > 2)");
  }

  /**
   * 2 idle + 4 releasing = 6 ≥ 4: admitted; allocate then finds the minimum fits only on room being
   * released, and pipelines it there (it waits for that room, not for admission).
   */
  @Test
  void roomBeingReleasedCountsAsRoom() {
    JobDecision decision =
        run(
                Fixtures.defaultConfiguration(),
                eightCpuSixUsed("4"),
                gangOfFour("big", GangMode.STRICT))
            .decision("default/big");

    assertThat(decision.reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /**
   * 2 cpu free, three one-cpu jobs in three queues (each queue's own limits hold them all): the
   * first two take the room, the third is not let in.
   */
  @Test
  void eachAdmittedMinimumTakesItsShareOfTheRoomBeforeTheNextJobIsJudged() {
    JobInfo first = job("a").queue("q-a").minWorkers(0).leader("cpu", "1").build();
    JobInfo second = job("b").queue("q-b").minWorkers(0).leader("cpu", "1").build();
    JobInfo third = job("c").queue("q-c").minWorkers(0).leader("cpu", "1").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(eightCpuSixUsed("0")),
                    List.of(first, second, third),
                    List.of(
                        Fixtures.queue("q-a").build(),
                        Fixtures.queue("q-b").build(),
                        Fixtures.queue("q-c").build())),
                Fixtures.defaultConfiguration(),
                T0);

    assertThat(result.decision("default/a").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/b").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/c").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/c").message())
        .isEqualTo("the cluster's free room cannot hold the job's minimum (cpu 1 > 0)");
  }

  @Test
  void aFactorAboveOneLetsMoreInThanIsFree() {
    // room = 1.5 × 8 − 6 = 6 ≥ 4
    JobDecision decision =
        run(GENEROUS, eightCpuSixUsed("0"), gangOfFour("big", GangMode.STRICT))
            .decision("default/big");

    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
  }

  /**
   * A NonStrict gang is meant to reserve piece by piece as room frees: it is let in, and holds 2 of
   * its 4.
   */
  @Test
  void aNonStrictGangIsLetInToReserveWhatIsFree() {
    JobDecision decision =
        run(
                Fixtures.defaultConfiguration(),
                eightCpuSixUsed("0"),
                gangOfFour("patient", GangMode.NON_STRICT))
            .decision("default/patient");

    assertThat(decision.reason()).isNotEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(decision.allocations()).hasSize(2);
  }

  /**
   * Room a pod already pipelined onto is not free: 8 cpu, 6 used of which 4 releasing, and a pod of
   * 4 cpu pipelined onto the releasing room leaves 8 − 6 + 4 − 4 = 2, less than the gang's 4.
   */
  @Test
  void roomClaimedByAPipelinedPodIsNotFree() {
    JobInfo waiting = job("waiting").minWorkers(0).leader("cpu", "4").build();
    JobInfo pipelined =
        waiting.toBuilder()
            .tasks(
                waiting.tasks().stream()
                    .map(task -> task.withStatus(TaskStatus.PIPELINED, "n"))
                    .toList())
            .build();

    JobDecision decision =
        run(
                Fixtures.defaultConfiguration(),
                eightCpuSixUsed("4"),
                pipelined,
                gangOfFour("big", GangMode.STRICT))
            .decision("default/big");

    assertThat(decision.reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(decision.message())
        .isEqualTo("the cluster's free room cannot hold the job's minimum (cpu 4 > 2)");
  }

  /**
   * A resource the job does not ask for cannot keep it out, even when other pods use more of it
   * than the cluster has.
   */
  @Test
  void anOvercommittedResourceTheJobDoesNotAskForDoesNotKeepItOut() {
    NodeInfo memoryOvercommitted = node("n").cpu("8").memory("32Gi").used("memory", "40Gi").build();

    JobDecision decision =
        run(WITHOUT_PROPORTION, memoryOvercommitted, gangOfFour("cpu-only", GangMode.STRICT))
            .decision("default/cpu-only");

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  /**
   * A pod outside the minimum that can never fit does not excuse the minimum from the room check:
   * giant's minimum (4 cpu) exceeds the 2 cpu free, so it waits outside, and the small job after it
   * gets the room. (Let in, giant would only wait as Unschedulable while its minimum held the
   * room.)
   */
  @Test
  void anElasticPodThatCanNeverFitDoesNotLetAMinimumPastTheRoom() {
    JobInfo giant =
        job("giant")
            .priority(9)
            .minWorkers(3)
            .leader("cpu", "1")
            .workers("w", 3, "cpu", "1")
            .workers("huge", 1, "cpu", "16")
            .build();
    JobInfo small = job("small").priority(1).minWorkers(0).leader("cpu", "1").build();

    CycleResult result = run(WITHOUT_PROPORTION, eightCpuSixUsed("0"), giant, small);

    assertThat(result.decision("default/giant").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/small").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  /** A pod larger than any node is a NeverFits failure, not a wait for room. */
  @Test
  void aJobThatCanNeverFitIsLeftToFailAsSuch() {
    JobInfo huge = job("huge").minWorkers(0).leader("cpu", "16").build();

    JobDecision decision =
        run(WITHOUT_PROPORTION, eightCpuSixUsed("0"), huge).decision("default/huge");

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.NEVER_FITS);
  }
}
