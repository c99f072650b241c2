package io.tyrl.arranger.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.TopologySummary;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.TopologyMarks;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Topology in the simulator: how jobs are marked, and whether their pods started in one domain. */
class TopologySimulationTest {

  private static final SchedulerConfigurationParser PARSER =
      new SchedulerConfigurationParser(
          new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE)
              .vocabulary());

  /** Two racks of 16 nodes. */
  private static final ClusterShape TWO_RACKS = ClusterShape.gpuNodes(32).withTopology();

  /** The jobs on two racks, through the default configuration with the cluster's levels. */
  private static RunRecord runWithLevels(List<TraceJob> jobs) {
    Variant aware =
        new Variant(
            "default",
            DefaultSchedulerConfiguration.YAML,
            PARSER
                .parse(DefaultSchedulerConfiguration.YAML)
                .withTopologyLevels(new TopologyLevels(ClusterShape.LEVELS)),
            UnaryOperator.identity());
    return Simulation.run(new Trace(jobs), TWO_RACKS, aware, SimulationSettings.DEFAULTS);
  }

  private static TraceJob job(String name, double submit, int workers, long seconds) {
    return job(name, submit, workers, workers, seconds);
  }

  private static TraceJob job(
      String name, double submit, int workers, int minWorkers, long seconds) {
    return new TraceJob(
        name,
        submit,
        "q",
        1,
        5,
        Resource.of("cpu", "1"),
        Resource.of("cpu", "1", "nvidia.com/gpu", "8"),
        workers,
        minWorkers,
        Duration.ofSeconds(seconds),
        GangMode.STRICT,
        null,
        null);
  }

  @Test
  void multiNodeJobsAreMarkedInTurnAndSingleNodeOnesNot() {
    List<TraceJob> jobs = new ArrayList<>();
    jobs.add(job("single", 0, 1, 10));
    for (int i = 0; i < 4; i++) {
      jobs.add(job("m" + i, i, 4, 10));
    }
    jobs.add(job("huge", 9, 20, 10));

    List<TraceJob> marked = TopologyMarks.mark(new Trace(jobs), TWO_RACKS).jobs();

    assertThat(marked.get(0).topology()).isEqualTo(TopologyRequest.NONE);
    assertThat(marked.get(1).topology()).isEqualTo(new TopologyRequest(ClusterShape.RACK, null));
    assertThat(marked.get(2).topology())
        .isEqualTo(new TopologyRequest(ClusterShape.BLOCK, ClusterShape.RACK));
    assertThat(marked.get(3).topology()).isEqualTo(new TopologyRequest(null, ClusterShape.RACK));
    assertThat(marked.get(4).topology()).isEqualTo(TopologyRequest.NONE);
    // 160 GPUs: more than a rack (128), so a block; it is the fifth multi-node job, marked
    // Required.
    assertThat(marked.get(5).topology()).isEqualTo(new TopologyRequest(ClusterShape.BLOCK, null));
  }

  /**
   * Ten one-node jobs run on part of the cluster when a 12-node gang asking a required rack
   * arrives: it starts with all its pods in one rack, and the share counted is 100 %.
   */
  @Test
  void aRequiredGangStartsInOneRackAndIsCountedSo() {
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      jobs.add(job("filler" + i, 0, 1, 50));
    }
    jobs.add(job("gang", 1, 12, 100).withTopology(new TopologyRequest(ClusterShape.RACK, null)));
    RunRecord run = runWithLevels(jobs);

    TopologySummary summary = TopologySummary.of(run);
    assertThat(summary.required()).isEqualTo(1);
    assertThat(summary.requiredInDomain()).isEqualTo(1.0);
    assertThat(summary.preferred()).isZero();
    assertThat(run.jobs().get(10).hasStarted()).isTrue();
  }

  /**
   * A gang preferring a rack whose minimum (12 whole-node workers) fits one rack of 16 nodes, and
   * whose 8 elastic workers above it cannot: the minimum starts in the leader's rack and the
   * surplus spills to the other. Counted as a preferred minimum kept, and as a job whose pods do
   * not all share a rack.
   */
  @Test
  void aPreferredGangKeepsItsMinimumInOneRackWhileItsSurplusSpills() {
    List<TraceJob> jobs =
        List.of(
            job("gang", 0, 20, 12, 100).withTopology(new TopologyRequest(null, ClusterShape.RACK)));
    RunRecord run = runWithLevels(jobs);

    TopologySummary summary = TopologySummary.of(run);
    assertThat(summary.preferred()).isEqualTo(1);
    assertThat(summary.preferredMinimumInDomain()).as("the minimum in one rack").isEqualTo(1.0);
    assertThat(summary.preferredInDomain()).as("all 21 pods in one rack").isEqualTo(0.0);
  }
}
