package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Gang is an admission rule: it holds until a job's minimum first runs, and again only once the job
 * is rescheduled, with waitTime counted from then. A running job's placements are never released by
 * gang rules, and a pod it lost is placed back alone.
 */
class GangAdmissionTest {

  private static final SchedulerConfiguration CONFIGURATION =
      Fixtures.configuration(
          """
      actions: "enqueue, allocate, backfill"
      tiers:
        - plugins:
            - name: priority
            - name: gang
              arguments: {nonStrictReservationTimeout: 1m}
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: nodeorder
      """);

  private static final Duration WAIT = Duration.ofMinutes(10);
  private static final Instant AN_HOUR_LATER = T0.plus(Duration.ofHours(1));

  private static NodeInfo tenCpu(int foreignCpu) {
    return node("n").cpu("10").memory("64Gi").used("cpu", Integer.toString(foreignCpu)).build();
  }

  /** Leader + 4 workers of 1 cpu, all in the minimum; created at T0, waitTime 10 minutes. */
  private static Fixtures.JobBuilder gangOfFive(GangMode mode) {
    return job("gang")
        .gang(mode)
        .waitTime(WAIT)
        .minWorkers(4)
        .leader("cpu", "1")
        .workers("worker", 4, "cpu", "1");
  }

  /** The gang with its leader and workers 0, 1, 2 on node n: worker 3 was lost. */
  private static JobInfo lostWorker3(GangMode mode, Stage stage) {
    return gangOfFive(mode)
        .stage(stage)
        .placed("gang-learner", "n")
        .placed("gang-worker-0", "n")
        .placed("gang-worker-1", "n")
        .placed("gang-worker-2", "n")
        .build();
  }

  private static JobDecision decide(JobInfo job, int foreignCpu, Instant now) {
    return Fixtures.scheduler()
        .runCycle(
            new Snapshot(List.of(tenCpu(foreignCpu)), List.of(job), List.of()), CONFIGURATION, now)
        .decision(job.key());
  }

  static Stream<Arguments> aJobThatLostAWorkerAnHourAfterCreation() {
    return Stream.of(
        // stage, mode, foreign cpu on the node, expected state, expected pods held, expected reason
        Arguments.of(Stage.RUNNING, GangMode.STRICT, 0, ScheduleState.SCHEDULED_SUCCEED, 5, null),
        Arguments.of(
            Stage.RUNNING,
            GangMode.STRICT,
            6,
            ScheduleState.SCHEDULED_PARTLY,
            4,
            ReasonCode.UNSCHEDULABLE),
        Arguments.of(
            Stage.RUNNING,
            GangMode.NON_STRICT,
            6,
            ScheduleState.SCHEDULED_PARTLY,
            4,
            ReasonCode.UNSCHEDULABLE),
        Arguments.of(
            Stage.RUNNING, GangMode.NON_STRICT, 0, ScheduleState.SCHEDULED_SUCCEED, 5, null),
        // Starting: placed but not run yet, so gang still applies; the wait for the lost pod starts
        // now.
        Arguments.of(Stage.STARTING, GangMode.STRICT, 0, ScheduleState.SCHEDULED_SUCCEED, 5, null),
        Arguments.of(
            Stage.STARTING,
            GangMode.STRICT,
            6,
            ScheduleState.UNSCHEDULED,
            4,
            ReasonCode.UNSCHEDULABLE),
        // Pending: a NonStrict reservation an hour after creation is past its waitTime.
        Arguments.of(
            Stage.PENDING,
            GangMode.NON_STRICT,
            0,
            ScheduleState.SCHEDULED_FAILED,
            0,
            ReasonCode.GANG_TIMEOUT));
  }

  /**
   * Gang rules stop at the first run — no GangTimeout, no released placements, the lost worker
   * comes back.
   */
  @ParameterizedTest(name = "{0} {1}, {2} foreign cpu → {3}")
  @MethodSource("aJobThatLostAWorkerAnHourAfterCreation")
  void aJobThatLostAWorkerIsJudgedByWhetherItsMinimumHasRun(
      Stage stage,
      GangMode mode,
      int foreignCpu,
      ScheduleState state,
      int podsHeld,
      ReasonCode reason) {
    JobDecision decision = decide(lostWorker3(mode, stage), foreignCpu, AN_HOUR_LATER);

    assertThat(decision.state()).isEqualTo(state);
    assertThat(decision.allocations()).hasSize(podsHeld);
    assertThat(decision.reason()).isEqualTo(reason);
  }

  /**
   * Gang timeouts are for jobs still short of their minimum: a job holding its minimum (leader and
   * 3 workers of a minimum of 3) that has not run yet is never timed out, however long ago its wait
   * began.
   */
  @Test
  void aStartingJobHoldingItsMinimumIsNotTimedOut() {
    JobInfo starting =
        gangOfFive(GangMode.STRICT)
            .minWorkers(3)
            .stage(Stage.STARTING)
            .waitingSince(T0)
            .placed("gang-learner", "n")
            .placed("gang-worker-0", "n")
            .placed("gang-worker-1", "n")
            .placed("gang-worker-2", "n")
            .build();

    JobDecision decision = decide(starting, 6, AN_HOUR_LATER);

    assertThat(decision.allocations()).hasSize(4);
    assertThat(decision.reason()).isNotEqualTo(ReasonCode.GANG_TIMEOUT);
  }

  /**
   * A NonStrict job past its reservation timeout that holds nothing has no reservation to release,
   * and says none. Allocate would replace any note with its own verdict, so the cycle here only
   * enqueues: the job's decision shows what the session opening left.
   */
  @Test
  void aNonStrictJobPastItsReservationTimeoutHoldingNothingReleasesNothing() {
    SchedulerConfiguration enqueueOnly =
        Fixtures.configuration(
            """
        actions: "enqueue"
        tiers:
          - plugins:
              - name: priority
              - name: gang
                arguments: {nonStrictReservationTimeout: 1m}
        """);
    JobInfo waiting = gangOfFive(GangMode.NON_STRICT).build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(List.of(tenCpu(0)), List.of(waiting), List.of()),
                enqueueOnly,
                T0.plus(Duration.ofMinutes(5)))
            .decision(waiting.key());

    assertThat(decision.reason()).isNotEqualTo(ReasonCode.GANG_RESERVATION_RELEASED);
    assertThat(decision.message()).doesNotContain("reservation");
  }

  @Test
  void aRunningJobCarriesNoWaitingSince() {
    assertThat(decide(lostWorker3(GangMode.STRICT, Stage.RUNNING), 6, AN_HOUR_LATER).waitingSince())
        .isNull();
  }

  static Stream<Arguments> waitStarts() {
    Instant rescheduledAt = T0.plus(Duration.ofMinutes(50));
    return Stream.of(
        // stage, recorded waitingSince, now, expected state, expected waitingSince in the decision
        Arguments.of(
            Stage.PENDING, null, T0.plus(Duration.ofMinutes(9)), ScheduleState.UNSCHEDULED, T0),
        Arguments.of(Stage.PENDING, null, T0.plus(WAIT), ScheduleState.SCHEDULED_FAILED, null),
        // Rescheduled an hour after creation: the first cycle to see it starts the wait.
        Arguments.of(
            Stage.RESCHEDULING, null, AN_HOUR_LATER, ScheduleState.UNSCHEDULED, AN_HOUR_LATER),
        Arguments.of(
            Stage.RESCHEDULING,
            rescheduledAt,
            rescheduledAt.plus(Duration.ofMinutes(9)),
            ScheduleState.UNSCHEDULED,
            rescheduledAt),
        Arguments.of(
            Stage.RESCHEDULING,
            rescheduledAt,
            rescheduledAt.plus(WAIT),
            ScheduleState.SCHEDULED_FAILED,
            null));
  }

  /** WaitTime counts from the start of the current wait — creation, or the reschedule. */
  @ParameterizedTest(name = "{0} waiting since {1}, now {2} → {3}")
  @MethodSource("waitStarts")
  void waitTimeCountsFromTheStartOfTheCurrentWait(
      Stage stage,
      Instant waitingSince,
      Instant now,
      ScheduleState state,
      Instant decidedWaitingSince) {
    JobInfo waiting = gangOfFive(GangMode.STRICT).stage(stage).waitingSince(waitingSince).build();

    JobDecision decision = decide(waiting, 8, now);

    assertThat(decision.state()).isEqualTo(state);
    assertThat(decision.waitingSince()).isEqualTo(decidedWaitingSince);
    if (state == ScheduleState.SCHEDULED_FAILED) {
      assertThat(decision.reason()).isEqualTo(ReasonCode.GANG_TIMEOUT);
    }
  }

  /**
   * Over cycles: the job starts, runs past its waitTime, loses a worker and gets it back; nothing
   * flaps.
   */
  @Test
  void aRunningStrictJobPastWaitTimeThatLosesAWorkerGetsItBack() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                CONFIGURATION,
                List.of(tenCpu(0)),
                List.of(gangOfFive(GangMode.STRICT).build()),
                List.of())
            .followingControllerStages();
    for (int second = 0; second < 3; second++) {
      simulator.cycle(T0.plusSeconds(second));
    }
    assertThat(simulator.job("default/gang").stage()).isEqualTo(Stage.RUNNING);

    simulator.losePod("default/gang", "gang-worker-2");
    CycleResult afterLoss = simulator.cycle(AN_HOUR_LATER);

    assertThat(afterLoss.decision("default/gang").state())
        .isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(afterLoss.decision("default/gang").allocations())
        .containsKey("gang-worker-2")
        .hasSize(5);
    for (int second = 1; second <= 10; second++) {
      assertThat(
              simulator.cycle(AN_HOUR_LATER.plusSeconds(second)).decision("default/gang").state())
          .isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    }
  }

  /**
   * Over cycles: the job runs, is rescheduled an hour after creation onto a cluster that is full
   * for now, and waits its whole waitTime from the reschedule before GangTimeout — not at once.
   */
  @Test
  void aRescheduledJobsWaitTimeCountsFromTheReschedule() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                CONFIGURATION,
                List.of(tenCpu(0)),
                List.of(gangOfFive(GangMode.STRICT).build()),
                List.of())
            .followingControllerStages();
    for (int second = 0; second < 3; second++) {
      simulator.cycle(T0.plusSeconds(second));
    }
    simulator.reschedule("default/gang");
    simulator.replaceNodes(List.of(tenCpu(8)));

    JobDecision atReschedule = simulator.cycle(AN_HOUR_LATER).decision("default/gang");
    JobDecision justBefore =
        simulator.cycle(AN_HOUR_LATER.plus(WAIT).minusSeconds(1)).decision("default/gang");
    JobDecision atWaitTime = simulator.cycle(AN_HOUR_LATER.plus(WAIT)).decision("default/gang");

    assertThat(atReschedule.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(atReschedule.waitingSince()).isEqualTo(AN_HOUR_LATER);
    assertThat(justBefore.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(atWaitTime.state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(atWaitTime.reason()).isEqualTo(ReasonCode.GANG_TIMEOUT);
    assertThat(atWaitTime.message()).contains("waiting since " + AN_HOUR_LATER);
  }

  /**
   * Readiness counts any workers, so the minimum is the cheapest one. A set of two 8-GPU workers
   * listed before a set of cpu workers must not make a job of minWorkersNum 2 "never fit" a queue
   * capped at 4 GPUs, nor keep it out of a cluster of 4 GPUs.
   */
  @Test
  void theMinimumCountsAnyWorkersNotTheFirstWorkerSetsInSpecOrder() {
    JobInfo mixed =
        job("mixed")
            .queue("capped")
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("simulator", 2, "cpu", "1", "nvidia.com/gpu", "8")
            .workers("actor", 4, "cpu", "1")
            .build();
    NodeInfo fourGpus = node("g").cpu("16").memory("64Gi").gpu(4).build();
    Snapshot snapshot =
        new Snapshot(
            List.of(fourGpus),
            List.of(mixed),
            List.of(Fixtures.queue("capped").capability("nvidia.com/gpu", "4").build()));

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0)
            .decision("default/mixed");

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(decision.allocations())
        .containsOnlyKeys(
            "mixed-learner", "mixed-actor-0", "mixed-actor-1", "mixed-actor-2", "mixed-actor-3");
  }

  /** Gang groups are per namespace; a group {@code ns/name} joins another namespace's group. */
  @Test
  void gangGroupsOfOneNameInTwoNamespacesAreTwoGroups() {
    JobInfo fitsInA =
        job("fits")
            .namespace("a")
            .group("g")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("worker", 1, "cpu", "1")
            .build();
    JobInfo tooBigInB =
        job("too-big")
            .namespace("b")
            .group("g")
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("worker", 2, "cpu", "8")
            .build();
    JobInfo joinsB =
        job("joins").namespace("a").group("b/g").minWorkers(0).leader("cpu", "1").build();
    Snapshot snapshot =
        new Snapshot(List.of(tenCpu(4)), List.of(fitsInA, tooBigInB, joinsB), List.of());

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, CONFIGURATION, T0);

    assertThat(result.decision("a/fits").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("b/too-big").allocations()).isEmpty();
    assertThat(result.decision("a/joins").reason()).isEqualTo(ReasonCode.GANG_GROUP_UNSATISFIED);
    assertThat(result.decision("a/joins").message())
        .startsWith("gang group b/g not placed: b/too-big cannot meet its minimum");
  }
}
