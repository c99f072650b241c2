package io.tyrl.arranger.simulator.report;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.engine.Simulation;
import io.tyrl.arranger.simulator.engine.SimulationSettings;
import io.tyrl.arranger.simulator.engine.Variant;
import io.tyrl.arranger.simulator.metrics.GreedyBound;
import io.tyrl.arranger.simulator.metrics.QualityMetrics;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.GeneratorSettings;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceGenerator;
import java.util.List;
import java.util.Map;

/**
 * A comparison of the default configuration and the baseline on a small generated trace, for report
 * tests.
 */
final class SmallComparison {

  static final int NODES = 6;

  private SmallComparison() {}

  static Comparison of(int jobs, long seed) {
    SchedulerConfigurationParser parser =
        new SchedulerConfigurationParser(
            new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE)
                .vocabulary());
    Trace trace = TraceGenerator.generate(GeneratorSettings.of(jobs, seed, 0.9, NODES));
    ClusterShape cluster = ClusterShape.gpuNodes(NODES);
    List<Variant> variants =
        List.of(
            Variant.of("default", DefaultSchedulerConfiguration.YAML, parser),
            Variant.volcanoLike(parser));
    GreedyBound bound = GreedyBound.of(trace, cluster.capacity());
    List<RunRecord> runs =
        variants.stream()
            .map(variant -> Simulation.run(trace, cluster, variant, SimulationSettings.DEFAULTS))
            .toList();
    return of(bound, runs);
  }

  static Comparison of(GreedyBound bound, List<RunRecord> runs) {
    return new Comparison(
        "test report",
        Map.of("trace", "generated"),
        bound,
        runs,
        runs.stream().map(run -> QualityMetrics.summarize(run, bound)).toList());
  }
}
