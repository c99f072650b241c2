package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A Strict job finds out its minimum cannot fit before placing its workers. Counted, not timed: a
 * plugin counts the fit checks a cycle makes. 32 nodes of 8 cpu, one cpu taken on one of them, so
 * 255 one-cpu workers fit while each gang needs 256 (plus its leader).
 */
class StrictGangDiscoveryTest {

  private static List<NodeInfo> nodesWithRoomFor255() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      nodes.add(
          node("n" + i)
              .cpu(i == 0 ? "9" : "8")
              .memory("64Gi")
              .used("cpu", i == 0 ? "2" : "0")
              .build());
    }
    return nodes;
  }

  private static JobInfo gang(String name, int createdSecond) {
    return job(name)
        .created(T0.plusSeconds(createdSecond))
        .basicPolicy(BasicPolicy.GANG)
        .leader("cpu", "1", "memory", "1Gi")
        .workers("actor", 256, "cpu", "1")
        .build();
  }

  @Test
  void strictGangsThatCannotFitAreTurnedAwayWithoutPlacingTheirWorkers() {
    AtomicLong fitChecks = new AtomicLong();
    var plugins =
        BuiltInPlugins.registry()
            .register(
                new PluginDescriptor(
                    "counting",
                    ArgumentSchema.NONE,
                    arguments ->
                        (session, hooks) ->
                            hooks.predicate(
                                (task, node) -> {
                                  fitChecks.incrementAndGet();
                                  return PredicateResult.FITS;
                                })));
    Scheduler scheduler = new Scheduler(plugins, BuiltInActions.registry(), null);
    SchedulerConfiguration configuration =
        new SchedulerConfigurationParser(scheduler.vocabulary())
            .parse(
                """
        actions: "enqueue, allocate"
        tiers:
          - plugins: [{name: priority}, {name: gang}, {name: predicates}, {name: counting}, {name: nodeorder}]
        """);
    List<JobInfo> gangs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      gangs.add(gang("gang-" + i, i));
    }

    CycleResult result =
        scheduler.runCycle(
            new Snapshot(nodesWithRoomFor255(), gangs, List.of()),
            configuration,
            T0.plusSeconds(60));

    // Placing the workers of even one gang would take at least 255 checks.
    assertThat(fitChecks.get()).isLessThan(255);
    for (JobInfo gang : gangs) {
      assertThat(result.decision(gang.key()).state()).isEqualTo(ScheduleState.UNSCHEDULED);
      assertThat(result.decision(gang.key()).reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    }
    assertThat(result.decision("default/gang-0").message())
        .isEqualTo(
            "gang minimum leader+256 workers not met "
                + "(leader not placed, 0/256 workers placed); the room left holds at most 255 of the 256 more workers it needs");
  }
}
