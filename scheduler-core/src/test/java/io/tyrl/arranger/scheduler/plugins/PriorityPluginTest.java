package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class PriorityPluginTest {

  /** Equal priorities: the older job takes the only free cpu, though its name comes second. */
  @Test
  void equalPrioritiesFallToTheOlderJob() {
    var young =
        job("a-young")
            .priority(5)
            .created(T0.plusSeconds(1))
            .minWorkers(0)
            .leader("cpu", "1")
            .build();
    var old = job("b-old").priority(5).created(T0).minWorkers(0).leader("cpu", "1").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(node("n1").cpu("1").memory("64Gi").build()),
                    List.of(young, old),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0.plusSeconds(10));

    assertThat(result.decision("default/b-old").allocations()).containsEntry("b-old-learner", "n1");
    assertThat(result.decision("default/a-young").allocations()).isEmpty();
  }
}
