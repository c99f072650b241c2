package io.tyrl.arranger.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.metrics.AllocationPoint;
import io.tyrl.arranger.simulator.metrics.Eviction;
import io.tyrl.arranger.simulator.metrics.JobOutcome;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.GeneratorSettings;
import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceGenerator;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Small workloads through the real scheduling core, with outcomes worked out by hand. */
class SimulationTest {

  private static final SchedulerConfigurationParser PARSER =
      new SchedulerConfigurationParser(
          new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE)
              .vocabulary());
  private static final Variant DEFAULT =
      new Variant(
          "default",
          DefaultSchedulerConfiguration.YAML,
          PARSER.parse(DefaultSchedulerConfiguration.YAML),
          UnaryOperator.identity());
  private static final ClusterShape ONE_NODE = ClusterShape.gpuNodes(1);

  @Test
  void cyclingOnChangeAJobIsPlacedWhenSubmittedRunsAfterStartupAndEndsAfterItsDuration() {
    Trace trace = new Trace(List.of(job("a", 0.3, 1, 2, 2, 1, 100, GangMode.STRICT)));

    RunRecord run = Simulation.run(trace, ONE_NODE, DEFAULT, SimulationSettings.DEFAULTS);

    JobOutcome a = run.jobs().get(0);
    assertThat(a.started()).isEqualTo(0.3);
    assertThat(a.finished()).isEqualTo(105.3);
    assertThat(gpusStartedAt(run, 50)).isEqualTo(5);
    assertThat(gpusStartedAt(run, 106)).isZero();
  }

  @Test
  void changesAfterACycleWaitForTheLeastIntervalAndTheBaselineForItsPeriod() {
    Trace trace =
        new Trace(
            List.of(
                job("a", 0, 1, 2, 2, 1, 100, GangMode.STRICT),
                job("b", 0.03, 1, 2, 2, 1, 100, GangMode.STRICT)));

    RunRecord arranger = Simulation.run(trace, ONE_NODE, DEFAULT, SimulationSettings.DEFAULTS);
    RunRecord baseline =
        Simulation.run(trace, ONE_NODE, Variant.volcanoLike(PARSER), SimulationSettings.DEFAULTS);

    assertThat(arranger.jobs().get(1).started())
        .as("0.03 s after a cycle at 0: 0.1 s after it")
        .isEqualTo(0.1);
    assertThat(baseline.jobs().get(1).started()).as("the next periodic cycle").isEqualTo(1.0);
  }

  @Test
  void everyPeriodOnlyAJobIsPlacedAtTheNextCycleRunsAfterStartupAndEndsAfterItsDuration() {
    Trace trace = new Trace(List.of(job("a", 0.3, 1, 2, 2, 1, 100, GangMode.STRICT)));

    RunRecord run =
        Simulation.run(trace, ONE_NODE, DEFAULT, SimulationSettings.DEFAULTS.periodicOnly());

    JobOutcome a = run.jobs().get(0);
    assertThat(a.started()).isEqualTo(1.0);
    assertThat(a.finished()).isEqualTo(106.0);
    assertThat(gpusStartedAt(run, 50)).isEqualTo(5);
    assertThat(gpusStartedAt(run, 107)).isZero();
    assertThat(run.endSeconds()).isLessThanOrEqualTo(107);
  }

  @Test
  void aJobThatDoesNotFitWaitsForTheRoomAndNoCycleRunsInBetween() {
    Trace trace =
        new Trace(
            List.of(
                job("a", 0, 2, 1, 4, 4, 100, GangMode.STRICT),
                job("b", 0.5, 4, 0, 0, 0, 100, GangMode.STRICT)));

    RunRecord run = Simulation.run(trace, ONE_NODE, DEFAULT, SimulationSettings.DEFAULTS);

    assertThat(run.jobs().get(0).started()).isEqualTo(0.0);
    assertThat(run.jobs().get(1).started()).isEqualTo(105.0);
    assertThat(run.jobs().get(1).finished()).isEqualTo(210.0);
    // cycles at 0, 1 (b arrives, a placed before), 2, 5 (a runs), 105 (a ends), 106, 110 (b runs),
    // 210 at most
    assertThat(run.cycles()).isLessThanOrEqualTo(9);
  }

  /**
   * Exact when the clock matters only through gang deadlines: fairness over time is off here. With
   * it on (the default), past usage moves the queues' shares between events too, and a job its
   * queue's share keeps out at enqueue may be let in by a periodic cycle a skipping run leaves out
   * (docs/simulator.md, "Skipping cycles").
   */
  @Test
  void skippingCyclesThatCannotChangeAnythingGivesTheSameRunAsCyclingEveryPeriod() {
    Trace trace = TraceGenerator.generate(GeneratorSettings.of(60, 21, 0.9, 4));
    Variant variant =
        Variant.of(
            "default without fairness over time",
            DefaultSchedulerConfiguration.YAML + "\nfairness:\n  strength: 0\n",
            PARSER);

    RunRecord skipping =
        Simulation.run(
            trace, ClusterShape.gpuNodes(4), variant, SimulationSettings.DEFAULTS, false);
    RunRecord everyPeriod =
        Simulation.run(trace, ClusterShape.gpuNodes(4), variant, SimulationSettings.DEFAULTS, true);

    assertThat(skipping.jobs()).isEqualTo(everyPeriod.jobs());
    assertThat(skipping.cycles()).isLessThan(everyPeriod.cycles() / 5);
    assertThat(skipping.jobs()).allMatch(JobOutcome::hasFinished);
    for (double t = 0; t < skipping.endSeconds(); t += 97) {
      assertThat(gpusStartedAt(skipping, t))
          .as("GPUs started at %s s", t)
          .isEqualTo(gpusStartedAt(everyPeriod, t));
      assertThat(gpusReservedAt(skipping, t))
          .as("GPUs reserved at %s s", t)
          .isEqualTo(gpusReservedAt(everyPeriod, t));
    }
  }

  @Test
  void aNonStrictReservationHeldPastTheThresholdCountsAsAGangDeadlockAndTheBaselineHoldsNone() {
    // Two nodes of 8 GPUs, each with 5 taken until 1005 s: 3 + 3 free. c needs three 2-GPU pods:
    // one fits per
    // node, so NonStrict c reserves two pods at 10 s and holds them until the gang plugin's
    // reservation
    // timeout (5 minutes after its creation) releases them; it starts once x1 ends.
    Trace trace =
        new Trace(
            List.of(
                job("x1", 0, 5, 0, 0, 0, 1000, GangMode.STRICT),
                job("x2", 0, 5, 0, 0, 0, 1000, GangMode.STRICT),
                job("c", 10, 2, 2, 2, 2, 100, GangMode.NON_STRICT)));
    SimulationSettings settings =
        new SimulationSettings(
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(120),
            Duration.ofHours(1),
            true,
            Duration.ofMillis(100));

    RunRecord arranger = Simulation.run(trace, ClusterShape.gpuNodes(2), DEFAULT, settings);
    RunRecord baseline =
        Simulation.run(trace, ClusterShape.gpuNodes(2), Variant.volcanoLike(PARSER), settings);

    JobOutcome c = arranger.jobs().get(2);
    assertThat(c.deadlocked()).isTrue();
    assertThat(c.started()).isEqualTo(1005.0);
    assertThat(gpusReservedAt(arranger, 200)).isEqualTo(4);
    assertThat(gpusReservedAt(arranger, 311)).isZero();
    assertThat(arranger.jobs().subList(0, 2)).noneMatch(JobOutcome::deadlocked);

    assertThat(baseline.jobs().get(2).deadlocked()).isFalse();
    assertThat(baseline.jobs().get(2).started()).isEqualTo(1005.0);
    assertThat(baseline.points()).allMatch(point -> point.reservedGpu() == 0);

    RunRecord lenient =
        Simulation.run(trace, ClusterShape.gpuNodes(2), DEFAULT, SimulationSettings.DEFAULTS);
    assertThat(lenient.jobs()).noneMatch(JobOutcome::deadlocked);
  }

  @Test
  void reclaimEvictsAJobWholeForAnotherQueueAndItStartsAgainFromScratch() {
    Variant preempting =
        new Variant(
            "preempt-reclaim",
            DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML,
            PARSER.parse(DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML),
            UnaryOperator.identity());
    // Queue a holds the whole node with two jobs; b (the same weight) deserves half of it.
    Trace trace =
        new Trace(
            List.of(
                new TraceJob(
                    "a1",
                    0,
                    "a",
                    1,
                    5,
                    gpus(4),
                    gpus(0),
                    0,
                    0,
                    Duration.ofSeconds(1000),
                    GangMode.STRICT,
                    null,
                    null),
                new TraceJob(
                    "a2",
                    0,
                    "a",
                    1,
                    5,
                    gpus(4),
                    gpus(0),
                    0,
                    0,
                    Duration.ofSeconds(1000),
                    GangMode.STRICT,
                    null,
                    null),
                new TraceJob(
                    "b",
                    50,
                    "b",
                    1,
                    5,
                    gpus(4),
                    gpus(0),
                    0,
                    0,
                    Duration.ofSeconds(100),
                    GangMode.STRICT,
                    null,
                    null)));

    RunRecord run = Simulation.run(trace, ONE_NODE, preempting, SimulationSettings.DEFAULTS);

    assertThat(run.reclaims()).isEqualTo(1);
    assertThat(run.preemptions()).isZero();
    List<JobOutcome> victims =
        run.jobs().subList(0, 2).stream().filter(job -> job.restarts() == 1).toList();
    assertThat(victims).hasSize(1);
    JobOutcome b = run.jobs().get(2);
    // chosen at the cycle after b arrives, the victim's pod is gone 5 s later, and b is placed the
    // cycle after.
    assertThat(b.started()).isBetween(55.0, 60.0);
    // the victim lost its progress: it runs its 1000 s again, from when it is placed again.
    assertThat(victims.get(0).finished()).isGreaterThan(b.started() + 1000);
    assertThat(run.evictions()).hasSize(1);
    Eviction eviction = run.evictions().get(0);
    assertThat(eviction.queue()).isEqualTo("a");
    assertThat(eviction.job()).isEqualTo(victims.get(0).name());
    assertThat(eviction.wholeJob()).isTrue();
    assertThat(eviction.started()).isTrue();
    assertThat(eviction.sameQueue()).isFalse();
    assertThat(eviction.pods()).isEqualTo(1);
    assertThat(eviction.gpu()).isEqualTo(4);
    // The other job of a has no workers: no surplus anywhere.
    assertThat(eviction.surplusElsewhere()).isFalse();
    assertThat(eviction.surplusCouldMakeRoom()).isFalse();
    assertThat(eviction.seconds()).isBetween(50.0, 51.0);
  }

  @Test
  void theCoreIsGivenTheTraceQueueTreeAndTheBaselineItsLeavesFlat() {
    QueueTree tree =
        new QueueTree(
            List.of(
                new QueueSpec("dept", null, 3, 0, gpus(4), gpus(8)),
                new QueueSpec("team", "dept", 2, 1, gpus(2), null)));

    List<QueueInfo> arranger = tree.queues().stream().map(Simulation::queueInfo).toList();
    List<QueueInfo> baseline =
        Variant.volcanoLike(PARSER).queues().apply(tree).queues().stream()
            .map(Simulation::queueInfo)
            .toList();

    assertThat(arranger)
        .containsExactly(
            new QueueInfo("dept", 3, gpus(8), true, null, 0, true, null, gpus(4), null, null),
            new QueueInfo("team", 2, null, true, null, 1, true, "dept", gpus(2), null, null));
    assertThat(baseline).containsExactly(QueueInfo.of("team", 2));
    assertThat(DEFAULT.queues().apply(tree)).isEqualTo(tree);
  }

  @Test
  void theBaselineSchedulesEveryGangAllOrNothingAndIgnoresLeaderFirst() {
    TraceJob job =
        job("a", 0, 1, 1, 4, 2, 60, GangMode.NON_STRICT).withBasicPolicy(BasicPolicy.LEADER_FIRST);
    TraceJob binPack = job.withBasicPolicy(new BasicPolicy("BinPack"));

    TraceJob baseline = Variant.volcanoLike(PARSER).jobs().apply(job);

    assertThat(baseline.gang()).isEqualTo(GangMode.STRICT);
    assertThat(baseline.basicPolicy()).isNull();
    assertThat(Variant.volcanoLike(PARSER).jobs().apply(binPack).basicPolicy())
        .isEqualTo(new BasicPolicy("BinPack"));
    assertThat(baseline.withGang(GangMode.NON_STRICT).withBasicPolicy(BasicPolicy.LEADER_FIRST))
        .isEqualTo(job);
  }

  private static long gpusStartedAt(RunRecord run, double seconds) {
    return pointAt(run, seconds).startedGpu();
  }

  private static long gpusReservedAt(RunRecord run, double seconds) {
    return pointAt(run, seconds).reservedGpu();
  }

  private static AllocationPoint pointAt(RunRecord run, double seconds) {
    AllocationPoint current = run.points().get(0);
    for (AllocationPoint point : run.points()) {
      if (point.seconds() > seconds) {
        break;
      }
      current = point;
    }
    return current;
  }

  private static Resource gpus(int count) {
    return count == 0
        ? Resource.of("cpu", "1")
        : Resource.of("cpu", "1", "nvidia.com/gpu", Integer.toString(count));
  }

  private static TraceJob job(
      String name,
      double submit,
      int leaderGpus,
      int workerGpus,
      int workers,
      int minWorkers,
      long seconds,
      GangMode gang) {
    return new TraceJob(
        name,
        submit,
        "q",
        1,
        5,
        gpus(leaderGpus),
        gpus(workerGpus),
        workers,
        minWorkers,
        Duration.ofSeconds(seconds),
        gang,
        null,
        null);
  }
}
