package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProportionPluginTest {

  /**
   * Two queues whose jobs ask for more than the cluster has deserve its resources in proportion to
   * their weights.
   */
  @Test
  void queuesThatAskForMoreThanTheClusterDeserveItInProportionToTheirWeights() {
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("node-1").cpu("6").memory("15Gi").build(),
                node("node-2").cpu("3").memory("12Gi").build()),
            List.of(
                job("podgroup-1")
                    .queue("queue-1")
                    .minWorkers(0)
                    .leader("cpu", "5", "memory", "10Gi")
                    .build(),
                job("podgroup-2")
                    .queue("queue-2")
                    .minWorkers(0)
                    .leader("cpu", "4", "memory", "12Gi")
                    .build(),
                job("podgroup-3")
                    .queue("queue-2")
                    .minWorkers(0)
                    .leader("cpu", "6", "memory", "8Gi")
                    .build()),
            List.of(queue("queue-1").weight(2).build(), queue("queue-2").weight(4).build()));

    Session session =
        Fixtures.scheduler().openSession(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(session.queue("queue-1").orElseThrow().deserved())
        .isEqualTo(Resource.of("cpu", "3", "memory", "9Gi"));
    assertThat(session.queue("queue-2").orElseThrow().deserved())
        .isEqualTo(Resource.of("cpu", "6", "memory", "18Gi"));
  }

  /** Floors lost whole units (8 GPUs over three equal queues gave 2/2/2). */
  @Test
  void eightGpusOverThreeEqualQueuesAreAllDeservedWithTheLeftoverUnitsByName() {
    Session session =
        openWithGpuQueues(
            8, List.of(queue("q-a").build(), queue("q-b").build(), queue("q-c").build()), 8, 8, 8);

    assertThat(gpusDeserved(session, "q-a", "q-b", "q-c")).containsExactly(3L, 3L, 2L);
  }

  /** The leftover units go by queue name, not by the order the snapshot lists the queues in. */
  @Test
  void leftoverUnitsOnEqualRemaindersAndWeightsGoByQueueNameWhateverTheSnapshotOrder() {
    Session session =
        openWithGpuQueues(
            8, List.of(queue("q-c").build(), queue("q-b").build(), queue("q-a").build()), 8, 8, 8);

    assertThat(gpusDeserved(session, "q-a", "q-b", "q-c")).containsExactly(3L, 3L, 2L);
  }

  /**
   * Weights 2 and 1 over 2 GPUs: floors 1 and 0, remainders 4 mod 3 = 1 and 2 mod 3 = 2, so the
   * leftover unit goes to the larger remainder (1/1 is closer to 1.33/0.67 than 2/0).
   */
  @Test
  void theLeftoverUnitGoesToTheLargestRemainderBeforeTheHigherWeight() {
    Session session =
        openWithGpuQueues(
            2, List.of(queue("heavy").weight(2).build(), queue("light").weight(1).build()), 2, 2);

    assertThat(gpusDeserved(session, "heavy", "light")).containsExactly(1L, 1L);
  }

  /**
   * 2 GPUs at weights 1 and 3: 2 × 1 / 4 = 0 r 2 and 2 × 3 / 4 = 1 r 2 — equal remainders, so the
   * leftover unit goes to the higher weight, although "a-light" comes first by name: 0/2. 7 GPUs at
   * 2:1: 14 / 3 = 4 r 2 and 7 / 3 = 2 r 1, the unit to the larger remainder: 5/2.
   */
  @Test
  void equalRemaindersFallToTheHigherWeight() {
    Session session =
        openWithGpuQueues(
            2,
            List.of(queue("a-light").weight(1).build(), queue("b-heavy").weight(3).build()),
            2,
            2);
    assertThat(gpusDeserved(session, "a-light", "b-heavy")).containsExactly(0L, 2L);

    Session weighted =
        openWithGpuQueues(
            7, List.of(queue("heavy").weight(2).build(), queue("light").weight(1).build()), 7, 7);
    assertThat(gpusDeserved(weighted, "heavy", "light")).containsExactly(5L, 2L);
  }

  /**
   * A queue asking for 1 GPU leaves the rest of its offer to the others: exact water-filling gives
   * 1, 3.5, 3.5 → 1/4/3.
   */
  @Test
  void whatACappedQueueLeavesIsSharedAgainWithoutLosingUnits() {
    Session session =
        openWithGpuQueues(
            8, List.of(queue("a").build(), queue("b").build(), queue("c").build()), 1, 8, 8);

    assertThat(gpusDeserved(session, "a", "b", "c")).containsExactly(1L, 4L, 3L);
  }

  /**
   * Three rounds of water-filling, each queue's room counted from what it already got: 12 GPUs over
   * three equal queues capped at 1, 5 and 10 give 4/4/4 offered, 1/4/4 taken; the 3 left give b 2
   * offered but only 1 room left (cap 5 − 4): 1/5/5; the last unit goes to c: 1/5/6.
   */
  @Test
  void aQueueNeverDeservesMoreThanItsCapAcrossRounds() {
    Session session =
        openWithGpuQueues(
            12, List.of(queue("a").build(), queue("b").build(), queue("c").build()), 1, 5, 10);

    assertThat(gpusDeserved(session, "a", "b", "c")).containsExactly(1L, 5L, 6L);
  }

  /**
   * Reclaim with proportion as the only plugin offering victims, so its rule alone decides which
   * pods may go.
   */
  private static final SchedulerConfiguration PROPORTION_DECIDES_VICTIMS =
      Fixtures.configuration(
          """
      actions: "enqueue, reclaim, allocate"
      tiers:
        - plugins:
            - name: priority
            - name: predicates
            - name: proportion
            - name: nodeorder
      """);

  /**
   * 3 cpu between two equal queues: over asks 3 and under 1, so over deserves 2 and under 1. over
   * holds all 3; giving one 1-cpu pod back leaves it at its share, exactly: allowed; a second would
   * take it below: refused. under's pod reclaims one, not two.
   */
  @Test
  void aQueueGivesBackPodsOnlyDownToItsShare() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("3").memory("64Gi").build()),
            List.of(
                job("big")
                    .queue("over")
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .workers("w", 2, "cpu", "1")
                    .running("n1", 2)
                    .build(),
                job("r").queue("under").minWorkers(0).leader("cpu", "1").build()),
            List.of(queue("over").build(), queue("under").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, PROPORTION_DECIDES_VICTIMS, T0.plusSeconds(2000));

    assertThat(result.victims()).containsOnlyKeys("default/r");
    assertThat(result.victims().get("default/r"))
        .singleElement()
        .satisfies(victim -> assertThat(victim.pods()).containsExactly("big-w-1"));
  }

  /**
   * The same over a reclaimer needing 2 cpu: over may give only 1 without going below its share, so
   * nothing is reclaimed.
   */
  @Test
  void aQueueGivesNothingBackWhenTheReclaimerNeedsMoreThanItCanSpare() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("3").memory("64Gi").build()),
            List.of(
                job("big")
                    .queue("over")
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .workers("w", 2, "cpu", "1")
                    .running("n1", 2)
                    .build(),
                job("r").queue("under").minWorkers(0).leader("cpu", "2").build()),
            List.of(queue("over").build(), queue("under").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, PROPORTION_DECIDES_VICTIMS, T0.plusSeconds(2000));

    assertThat(result.victims()).isEmpty();
  }

  /**
   * One node of {@code gpus} GPUs; one job per queue asking for the given GPUs (in queue order).
   */
  private static Session openWithGpuQueues(
      int gpus, List<io.tyrl.arranger.scheduler.api.QueueInfo> queues, int... requests) {
    List<io.tyrl.arranger.scheduler.api.JobInfo> jobs = new java.util.ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      String name = queues.get(i).name();
      jobs.add(
          job("job-" + name)
              .queue(name)
              .minWorkers(0)
              .leader("nvidia.com/gpu", Integer.toString(requests[i]))
              .build());
    }
    Snapshot snapshot =
        new Snapshot(List.of(node("n").cpu("64").memory("256Gi").gpu(gpus).build()), jobs, queues);
    return Fixtures.scheduler().openSession(snapshot, Fixtures.defaultConfiguration(), T0);
  }

  private static List<Long> gpusDeserved(Session session, String... queues) {
    return java.util.Arrays.stream(queues)
        .map(name -> wholeGpus(session.queue(name).orElseThrow().deserved().get(Resource.GPU)))
        .toList();
  }

  @Test
  void aQueueRequestingLessThanItsWeightLeavesTheRestToOthers() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("12").memory("12Gi").build()),
            List.of(
                job("small")
                    .queue("light")
                    .minWorkers(0)
                    .leader("cpu", "1", "memory", "1Gi")
                    .build(),
                job("big")
                    .queue("heavy")
                    .minWorkers(0)
                    .leader("cpu", "20", "memory", "20Gi")
                    .build()),
            List.of(queue("light").weight(5).build(), queue("heavy").weight(1).build()));

    Session session =
        Fixtures.scheduler().openSession(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(session.queue("light").orElseThrow().deserved())
        .isEqualTo(Resource.of("cpu", "1", "memory", "1Gi"));
    assertThat(session.queue("heavy").orElseThrow().deserved())
        .isEqualTo(Resource.of("cpu", "11", "memory", "11Gi"));
  }

  @Test
  void capabilityCapsDeservedAndAMinimumAboveItNeverFits() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("32").memory("64Gi").build()),
            List.of(
                job("fits")
                    .queue("capped")
                    .minWorkers(1)
                    .leader("cpu", "2")
                    .workers("actor", 1, "cpu", "2")
                    .build(),
                job("too-big")
                    .queue("capped")
                    .minWorkers(2)
                    .leader("cpu", "2")
                    .workers("actor", 2, "cpu", "2")
                    .build()),
            List.of(queue("capped").capability("cpu", "5").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    // Its jobs request 10 cpu of a 32-cpu cluster; the capability caps what it deserves at 5.
    assertThat(result.queues().get("capped").deserved().milliCpu()).isEqualTo(5000);
    assertThat(result.decision("default/fits").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/too-big").state())
        .isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/too-big").reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(result.decision("default/too-big").message())
        .contains("needs cpu 6 but queue capped is capped at 5");
  }

  /**
   * The capability is a limit the minimum may reach: a minimum of exactly the capability is placed.
   */
  @Test
  void aMinimumEqualToTheCapabilityFits() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("32").memory("64Gi").build()),
            List.of(
                job("exact")
                    .queue("capped")
                    .minWorkers(1)
                    .leader("cpu", "2")
                    .workers("actor", 1, "cpu", "2")
                    .build()),
            List.of(queue("capped").capability("cpu", "4").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/exact").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
  }

  /**
   * A capability lowered below the minimum of a job that runs does not fail it: what it holds it
   * got within the old capability, and gang rules no longer apply to it. A job holding nothing is
   * judged by its minimum even if it ran before: enqueue would refuse it for ever (its minimum
   * cannot get into the queue), so NeverFits is the honest verdict.
   */
  static Stream<Arguments> runningJobsUnderALoweredCapability() {
    return Stream.of(
        Arguments.of(
            "a running job holding its pods keeps them",
            true,
            ScheduleState.SCHEDULED_SUCCEED,
            null),
        Arguments.of(
            "a job that ran but lost every pod never fits",
            false,
            ScheduleState.SCHEDULED_FAILED,
            ReasonCode.NEVER_FITS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runningJobsUnderALoweredCapability")
  void aJobThatRanIsFailedForItsMinimumOnlyWhenItHoldsNothing(
      String description, boolean holdsItsPods, ScheduleState state, ReasonCode reason) {
    var builder =
        job("ran")
            .queue("capped")
            .stage(Stage.RUNNING)
            .minWorkers(2)
            .leader("cpu", "2")
            .workers("actor", 2, "cpu", "2");
    if (holdsItsPods) {
      builder.running("n", 2);
    }
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("32").memory("64Gi").build()),
            List.of(builder.build()),
            List.of(queue("capped").capability("cpu", "4").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/ran").state()).isEqualTo(state);
    assertThat(result.decision("default/ran").reason()).isEqualTo(reason);
  }

  /**
   * Enqueue names the capability as the limit only when it is below the cluster's total; at the
   * total, the cluster is the limit.
   */
  @Test
  void aCapabilityAtTheClusterTotalIsNotNamedAsTheLimit() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("4").memory("64Gi").build()),
            List.of(
                job("first").queue("q").created(T0).minWorkers(0).leader("cpu", "3").build(),
                job("second")
                    .queue("q")
                    .created(T0.plusSeconds(1))
                    .minWorkers(0)
                    .leader("cpu", "3")
                    .build()),
            List.of(queue("q").capability("cpu", "4").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/second").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/second").message())
        .contains("cannot hold the job's minimum (cpu 3) within the cluster's total 4");
  }

  @Test
  void enqueueHoldsBackAJobItsQueueCannotHoldNext() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("32").memory("64Gi").build()),
            List.of(
                job("first").queue("q").created(T0).minWorkers(0).leader("cpu", "3").build(),
                job("second")
                    .queue("q")
                    .created(T0.plusSeconds(1))
                    .minWorkers(0)
                    .leader("cpu", "3")
                    .build()),
            List.of(queue("q").capability("cpu", "4").build()));

    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/first").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/second").state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(result.decision("default/second").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/second").message())
        .contains("queue q cannot hold the job's minimum (cpu 3) within its capability 4");
  }
}
