package io.tyrl.arranger.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.simulator.trace.OpenbTrace;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenbReplayTest {

  private static final Scheduler SCHEDULER =
      new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);

  private static OpenbTrace.Pod pod(String name, int gpus, long each, String... models) {
    return new OpenbTrace.Pod(name, 1000, 1024, gpus, each, List.of(models));
  }

  /**
   * Three GPUs: "t4" has two T4s, "v100" one V100. A V100 pod takes the V100 node; a second one
   * finds it full and is not tried again, though two T4s are free; two half-GPU pods share one T4.
   */
  @Test
  void podsKeepToTheirGpuModelAndAPodThatFitsNowhereIsNotRetried() {
    List<OpenbTrace.Node> nodes =
        List.of(
            new OpenbTrace.Node("t4", 32_000, 65_536, 2, "T4"),
            new OpenbTrace.Node("v100", 32_000, 65_536, 1, "V100M16"));
    List<OpenbTrace.Pod> pods =
        List.of(
            pod("a", 1, 1000, "V100M16", "V100M32"),
            pod("b", 1, 1000, "V100M16"),
            pod("c", 1, 500),
            pod("d", 1, 500),
            pod("e", 2, 1000));

    OpenbReplay.Curve curve =
        OpenbReplay.replay(
            SCHEDULER,
            DefaultSchedulerConfiguration.parse(SCHEDULER.vocabulary()),
            nodes,
            Map.of(),
            pods);

    // a (V100), c and d (one T4 shared): placed; b (no V100 left) and e (one whole T4 left): not.
    assertThat(curve.placed()).isEqualTo(3);
    // Arrived 1000m (33 %) before b, 2000m (67 %) before c: the 50 % point reads 1000 / 3000.
    assertThat(curve.at(50)).isCloseTo(100.0 / 3, within(1e-9));
    // Everything arrived (5000m, 167 %) by the last points: 2000m of 3000m placed.
    assertThat(curve.at(130)).isCloseTo(200.0 / 3, within(1e-9));
  }
}
