package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gangs compete for room that frees piecemeal: capacity 10 cpu, three gangs of 5 pods (leader + 4
 * workers, 1 cpu each). The capacity frees up piecemeal (foreign pods leave: 3, then 6, then 10 cpu
 * free), and jobs are ordered by DRF, so each cycle serves the gang holding least.
 */
class GangSchedulingTest {

  private static final SchedulerConfiguration CONFIGURATION =
      Fixtures.configuration(
          """
      actions: "enqueue, allocate, backfill"
      tiers:
        - plugins:
            - name: priority
            - name: gang
              arguments: {nonStrictReservationTimeout: 30s}
        - plugins:
            - name: drf
            - name: predicates
            - name: nodeorder
      """);

  private static final List<QueueInfo> DRF_QUEUE =
      List.of(new QueueInfo("default", 1, null, true, JobQueuePolicy.DRF));

  private static NodeInfo capacityTen(int foreignCpu) {
    return node("n").cpu("10").memory("64Gi").used("cpu", Integer.toString(foreignCpu)).build();
  }

  private static List<JobInfo> threeGangs(GangMode mode) {
    return List.of(gang("g1", mode, 0), gang("g2", mode, 1), gang("g3", mode, 2));
  }

  private static JobInfo gang(String name, GangMode mode, int createdSecond) {
    return job(name)
        .gang(mode)
        .created(T0.plusSeconds(createdSecond))
        .minWorkers(4)
        .leader("cpu", "1")
        .workers("worker", 4, "cpu", "1")
        .build();
  }

  private static ClusterSimulator arrivePiecemeal(GangMode mode) {
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            CONFIGURATION,
            List.of(capacityTen(7)),
            threeGangs(mode),
            DRF_QUEUE);
    simulator.cycle(T0.plusSeconds(10));
    simulator.replaceNodes(List.of(capacityTen(4)));
    simulator.cycle(T0.plusSeconds(11));
    simulator.replaceNodes(List.of(capacityTen(0)));
    return simulator;
  }

  @Test
  void nonStrictGangsDeadlockHoldingThreeThreeAndFour() {
    ClusterSimulator simulator = arrivePiecemeal(GangMode.NON_STRICT);
    simulator.cycle(T0.plusSeconds(12));

    CycleResult stuck = simulator.cycle(T0.plusSeconds(29));

    assertThat(stuck.decision("default/g1").allocations()).hasSize(3);
    assertThat(stuck.decision("default/g2").allocations()).hasSize(3);
    assertThat(stuck.decision("default/g3").allocations()).hasSize(4);
    for (JobDecision decision : stuck.decisions().values()) {
      assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
      assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
      assertThat(decision.message())
          .contains("NonStrict reservation, gang minimum leader+4 workers not met yet")
          .contains("0/1 nodes fit");
    }
    assertThat(stuck.decision("default/g1").waitingSince()).isEqualTo(T0);
  }

  @Test
  void nonStrictDeadlockIsBrokenOnceTheLongestWaitingJobPassesTheReservationTimeout() {
    ClusterSimulator simulator = arrivePiecemeal(GangMode.NON_STRICT);
    simulator.cycle(T0.plusSeconds(12));
    simulator.cycle(T0.plusSeconds(29));

    CycleResult resolved = simulator.cycle(T0.plusSeconds(30));

    JobDecision released = resolved.decision("default/g1");
    assertThat(released.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(released.allocations()).isEmpty();
    assertThat(released.reason()).isEqualTo(ReasonCode.GANG_RESERVATION_RELEASED);
    assertThat(released.message())
        .contains("NonStrict reservation of 3 pods released: the job has waited since " + T0)
        .contains("gang minimum leader+4 workers not met");
    assertThat(resolved.decision("default/g2").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(resolved.decision("default/g2").allocations()).hasSize(5);
    assertThat(resolved.decision("default/g3").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(resolved.decision("default/g3").allocations()).hasSize(5);
  }

  @Test
  void strictPlacesTwoWholeGangsAndLeavesTheThirdPendingWithItsReason() {
    ClusterSimulator simulator = arrivePiecemeal(GangMode.STRICT);

    CycleResult result = simulator.cycle(T0.plusSeconds(12));

    assertThat(result.decision("default/g1").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/g2").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    JobDecision third = result.decision("default/g3");
    assertThat(third.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(third.allocations()).isEmpty();
    assertThat(third.waitingSince()).isEqualTo(T0.plusSeconds(2));
    assertThat(third.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(third.message())
        .isEqualTo(
            "gang minimum leader+4 workers not met (leader not placed, 0/4 workers placed); "
                + "the room left holds at most 0 of the 4 more workers it needs; 0/1 nodes fit worker: 1 Insufficient cpu");
  }

  @Test
  void strictDiscardsAPartialGangWithinTheCycle() {
    Snapshot snapshot =
        new Snapshot(List.of(capacityTen(7)), List.of(gang("g1", GangMode.STRICT, 0)), DRF_QUEUE);

    JobDecision decision =
        Fixtures.scheduler().runCycle(snapshot, CONFIGURATION, T0).decision("default/g1");

    assertThat(decision.allocations()).isEmpty();
    assertThat(decision.message())
        .isEqualTo(
            "gang minimum leader+4 workers not met (leader not placed, 0/4 workers placed); "
                + "the room left holds at most 3 of the 4 more workers it needs");
  }

  @Test
  void waitTimeElapsedFailsTheJobAndReleasesItsReservationForOthers() {
    JobInfo waiting =
        job("waiting")
            .gang(GangMode.NON_STRICT)
            .waitTime(Duration.ofMinutes(10))
            .minWorkers(4)
            .leader("cpu", "1")
            .workers("worker", 4, "cpu", "1")
            .placed("waiting-learner", "n")
            .placed("waiting-worker-0", "n")
            .build();
    JobInfo next =
        job("next")
            .created(T0.plusSeconds(1))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("worker", 1, "cpu", "1")
            .build();
    Snapshot snapshot = new Snapshot(List.of(capacityTen(8)), List.of(waiting, next), List.of());

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, CONFIGURATION, T0.plus(Duration.ofMinutes(10)));

    assertThat(result.decision("default/waiting").state())
        .isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/waiting").reason()).isEqualTo(ReasonCode.GANG_TIMEOUT);
    assertThat(result.decision("default/waiting").allocations()).isEmpty();
    assertThat(result.decision("default/next").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  @Test
  void waitTimeNotYetElapsedKeepsWaiting() {
    JobInfo waiting =
        job("waiting")
            .waitTime(Duration.ofMinutes(10))
            .minWorkers(4)
            .leader("cpu", "1")
            .workers("worker", 4, "cpu", "1")
            .build();
    Snapshot snapshot = new Snapshot(List.of(capacityTen(8)), List.of(waiting), List.of());

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(snapshot, CONFIGURATION, T0.plus(Duration.ofMinutes(9)))
            .decision("default/waiting");

    assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
  }

  @Test
  void gangGroupPlacesEveryMemberOrNone() {
    JobInfo fits =
        job("fits")
            .group("team")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("worker", 1, "cpu", "1")
            .build();
    JobInfo tooBig =
        job("too-big")
            .group("team")
            .created(T0.plusSeconds(1))
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("worker", 2, "cpu", "4")
            .build();
    Snapshot tight = new Snapshot(List.of(capacityTen(4)), List.of(fits, tooBig), List.of());

    CycleResult none = Fixtures.scheduler().runCycle(tight, CONFIGURATION, T0);

    assertThat(none.decision("default/fits").allocations()).isEmpty();
    assertThat(none.decision("default/fits").reason()).isEqualTo(ReasonCode.GANG_GROUP_UNSATISFIED);
    assertThat(none.decision("default/fits").message())
        .contains("gang group default/team not placed: default/too-big cannot meet its minimum");
    assertThat(none.decision("default/too-big").allocations()).isEmpty();

    NodeInfo roomy = node("n").cpu("16").memory("64Gi").build();
    CycleResult all =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(List.of(roomy), List.of(fits, tooBig), List.of()), CONFIGURATION, T0);

    assertThat(all.decision("default/fits").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(all.decision("default/too-big").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  @Test
  void elasticWorkersArePlacedAfterTheMinimumUntilTheJobIsWhole() {
    JobInfo elastic =
        job("elastic").minWorkers(2).leader("cpu", "1").workers("worker", 6, "cpu", "1").build();
    ClusterSimulator simulator =
        new ClusterSimulator(
            Fixtures.scheduler(),
            CONFIGURATION,
            List.of(capacityTen(6)),
            List.of(elastic),
            List.of());

    JobDecision partly = simulator.cycle(T0).decision("default/elastic");
    simulator.replaceNodes(List.of(capacityTen(0)));
    JobDecision whole = simulator.cycle(T0.plusSeconds(1)).decision("default/elastic");

    assertThat(partly.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(partly.allocations()).hasSize(4);
    assertThat(partly.message())
        .startsWith("leader+3/6 workers placed; 0/1 nodes fit worker: 1 Insufficient cpu");
    assertThat(whole.state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(whole.allocations()).hasSize(7).containsAllEntriesOf(partly.allocations());
    assertThat(whole.reason()).isNull();
  }

  @Test
  void basicPolicyGangNeedsEveryPod() {
    JobInfo allOrNothing =
        job("all")
            .basicPolicy(io.tyrl.arranger.scheduler.api.BasicPolicy.GANG)
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("worker", 5, "cpu", "1")
            .build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(List.of(capacityTen(5)), List.of(allOrNothing), List.of()),
                CONFIGURATION,
                T0)
            .decision("default/all");

    assertThat(decision.allocations()).isEmpty();
    assertThat(decision.message()).startsWith("gang minimum leader+5 workers not met");
  }

  @Test
  void aPodLargerThanEveryAdmissibleNodeNeverFits() {
    JobInfo huge =
        job("huge")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", "nvidia.com/gpu", "16")
            .build();
    JobInfo nowhere =
        job("nowhere").minWorkers(0).leader("cpu", "1").nodeSelector("pool", "missing").build();
    List<NodeInfo> nodes =
        List.of(
            node("a").cpu("8").memory("8Gi").gpu(8).build(),
            node("b").cpu("8").memory("8Gi").gpu(4).build());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(huge, nowhere), List.of()), CONFIGURATION, T0);

    assertThat(result.decision("default/huge").state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/huge").reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(result.decision("default/huge").message())
        .isEqualTo(
            "pod actor is larger than each of the 2 admissible nodes (nvidia.com/gpu 16 > 8)");
    assertThat(result.decision("default/nowhere").state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(result.decision("default/nowhere").message())
        .contains("2 node(s) didn't match node selector");
  }

  @Test
  void anInvalidOrFailingJobDoesNotStopTheOthers() {
    JobInfo invalid =
        job("invalid").minWorkers(5).leader("cpu", "1").workers("worker", 2, "cpu", "1").build();
    JobInfo lost = job("lost").queue("missing").minWorkers(0).leader("cpu", "1").build();
    JobInfo explosive = job("explosive").minWorkers(0).leader("cpu", "1").build();
    JobInfo fine =
        job("fine").minWorkers(1).leader("cpu", "1").workers("worker", 1, "cpu", "1").build();
    var plugins =
        io.tyrl.arranger.scheduler.plugins.BuiltInPlugins.registry()
            .register(
                new io.tyrl.arranger.scheduler.framework.PluginDescriptor(
                    "explosive",
                    io.tyrl.arranger.scheduler.conf.ArgumentSchema.NONE,
                    arguments ->
                        (session, hooks) ->
                            hooks.predicate(
                                (task, node) -> {
                                  if (task.job().info().name().equals("explosive")) {
                                    throw new IllegalStateException("boom");
                                  }
                                  return io.tyrl.arranger.scheduler.framework.PredicateResult.FITS;
                                })));
    var scheduler =
        new io.tyrl.arranger.scheduler.framework.Scheduler(
            plugins, BuiltInActions.registry(), null);
    SchedulerConfiguration configuration =
        new io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser(scheduler.vocabulary())
            .parse(
                """
        actions: "enqueue, allocate"
        tiers:
          - plugins: [{name: gang}, {name: predicates}, {name: explosive}, {name: nodeorder}]
        """);

    CycleResult result =
        scheduler.runCycle(
            new Snapshot(
                List.of(capacityTen(0)), List.of(invalid, lost, explosive, fine), List.of()),
            configuration,
            T0);

    assertThat(result.decision("default/invalid").state())
        .isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/invalid").reason()).isEqualTo(ReasonCode.INVALID_JOB);
    assertThat(result.decision("default/invalid").message())
        .isEqualTo("minWorkersNum 5 exceeds the job's 2 workers");
    assertThat(result.decision("default/lost").state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(result.decision("default/lost").reason()).isEqualTo(ReasonCode.QUEUE_NOT_FOUND);
    assertThat(result.decision("default/explosive").state())
        .isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/explosive").message()).contains("boom");
    assertThat(result.decision("default/fine").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  @Test
  void existingAllocationsAreKeptAndCountedOnTheirNodes() {
    JobInfo running =
        job("running")
            .minWorkers(1)
            .leader("cpu", "4")
            .workers("worker", 1, "cpu", "4")
            .placed("running-learner", "n")
            .placed("running-worker-0", "n")
            .build();
    JobInfo newcomer = job("newcomer").minWorkers(0).leader("cpu", "4").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(List.of(capacityTen(0)), List.of(running, newcomer), List.of()),
                CONFIGURATION,
                T0);

    assertThat(result.decision("default/running").state())
        .isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/running").allocations())
        .containsEntry("running-learner", "n")
        .containsEntry("running-worker-0", "n");
    assertThat(result.decision("default/newcomer").allocations()).isEmpty();
    assertThat(result.decision("default/newcomer").message()).contains("1 Insufficient cpu");
  }
}
