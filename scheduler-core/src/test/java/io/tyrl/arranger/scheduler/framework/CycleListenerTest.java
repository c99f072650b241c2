package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The timing hooks the service turns into metrics: each plugin opened, each action run, the whole
 * cycle, once each.
 */
class CycleListenerTest {

  private final List<String> calls = new ArrayList<>();
  private final List<Long> nanos = new ArrayList<>();
  private CycleResult completed;

  private final CycleListener recorder =
      new CycleListener() {
        @Override
        public void pluginOpened(String plugin, long elapsed) {
          calls.add("plugin " + plugin);
          nanos.add(elapsed);
        }

        @Override
        public void actionExecuted(String action, long elapsed) {
          calls.add("action " + action);
          nanos.add(elapsed);
        }

        @Override
        public void cycleCompleted(CycleResult result, long elapsed) {
          calls.add("cycle");
          nanos.add(elapsed);
          completed = result;
        }
      };

  @Test
  void everyPluginActionAndTheCycleIsTimedOnceWithinTheCyclesWallTime() {
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), recorder);
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("4").memory("8Gi").build()),
            List.of(job("j").minWorkers(0).leader("cpu", "1").build()),
            List.of());

    long before = System.nanoTime();
    CycleResult result = scheduler.runCycle(snapshot, Fixtures.defaultConfiguration(), T0);
    long wall = System.nanoTime() - before;

    assertThat(calls)
        .containsExactly(
            "plugin priority",
            "plugin gang",
            "plugin conformance",
            "plugin drf",
            "plugin predicates",
            "plugin proportion",
            "plugin overcommit",
            "plugin nodeorder",
            "action enqueue",
            "action reclaim",
            "action allocate",
            "action backfill",
            "cycle");
    assertThat(nanos).allSatisfy(elapsed -> assertThat(elapsed).isBetween(0L, wall));
    assertThat(completed).isSameAs(result);
    assertThat(result.elapsed()).isLessThanOrEqualTo(Duration.ofNanos(wall));
    assertThat(nanos.get(nanos.size() - 1))
        .as("the cycle takes at least its actions")
        .isGreaterThanOrEqualTo(nanos.subList(8, 12).stream().mapToLong(Long::longValue).sum());
  }
}
