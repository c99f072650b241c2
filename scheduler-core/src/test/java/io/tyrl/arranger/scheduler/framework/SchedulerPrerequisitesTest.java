package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ActionConfiguration;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulerPrerequisitesTest {

  private final List<String> ran = new ArrayList<>();

  private record Step(String name, List<String> ran) implements Action {
    @Override
    public void execute(Session session) {
      ran.add(name);
    }
  }

  private record Needing(String name, List<String> ran, List<Action> prerequisites)
      implements Action {
    @Override
    public void execute(Session session) {
      ran.add(name);
    }
  }

  private ActionDescriptor descriptor(String name, Action action) {
    return new ActionDescriptor(name, ArgumentSchema.NONE, arguments -> action);
  }

  @Test
  void aPrerequisiteRunsOnceJustBeforeTheFirstActionNamingIt() {
    Registry<ActionDescriptor> actions =
        Registry.actions()
            .register(descriptor("plain", new Step("plain", ran)))
            .register(
                descriptor("first", new Needing("first", ran, List.of(new Step("resume", ran)))))
            .register(
                descriptor(
                    "second", new Needing("second", ran, List.of(new Step("resume again", ran)))));
    SchedulerConfiguration configuration =
        new SchedulerConfiguration(
            List.of(
                new ActionConfiguration("plain", Arguments.DEFAULTS),
                new ActionConfiguration("first", Arguments.DEFAULTS),
                new ActionConfiguration("second", Arguments.DEFAULTS)),
            List.of());

    new Scheduler(BuiltInPlugins.registry(), actions, null)
        .runCycle(new Snapshot(List.of(), List.of(), List.of()), configuration, T0);

    assertThat(ran)
        .as("steps of one class count as one")
        .containsExactly("plain", "resume", "first", "second");
  }

  @Test
  void withoutAnActionNamingItAPrerequisiteNeverRuns() {
    Registry<ActionDescriptor> actions =
        Registry.actions().register(descriptor("plain", new Step("plain", ran)));
    SchedulerConfiguration configuration =
        new SchedulerConfiguration(
            List.of(new ActionConfiguration("plain", Arguments.DEFAULTS)), List.of());

    new Scheduler(BuiltInPlugins.registry(), actions, null)
        .runCycle(new Snapshot(List.of(), List.of(), List.of()), configuration, T0);

    assertThat(ran).containsExactly("plain");
  }
}
