package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** How functions of several plugins combine across tiers. */
class TiersTest {

  private static PluginDescriptor plugin(String name, BiConsumer<Session, PluginHooks> open) {
    return new PluginDescriptor(name, ArgumentSchema.NONE, arguments -> open::accept);
  }

  private Session open(String tiersYaml, PluginDescriptor... plugins) {
    Registry<PluginDescriptor> registry = Registry.plugins();
    for (PluginDescriptor descriptor : plugins) {
      registry.register(descriptor);
    }
    Scheduler scheduler = new Scheduler(registry, BuiltInActions.registry(), null);
    Snapshot snapshot =
        new Snapshot(
            List.of(
                node("n1").cpu("4").memory("4Gi").build(),
                node("n2").cpu("4").memory("4Gi").build()),
            List.of(
                job("a")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("w", 2, "cpu", "1")
                    .placed("a-learner", "n1")
                    .placed("a-w-0", "n1")
                    .placed("a-w-1", "n2")
                    .build(),
                job("b").minWorkers(0).leader("cpu", "1").build()),
            List.of());
    return scheduler.openSession(
        snapshot,
        new SchedulerConfigurationParser(scheduler.vocabulary())
            .parse("actions: allocate\n" + tiersYaml),
        T0);
  }

  @Test
  void firstNonZeroComparatorWinsInTierOrder() {
    Session session =
        open(
            """
        tiers:
          - plugins: [{name: silent}, {name: b-first}]
          - plugins: [{name: a-first}]
        """,
            plugin("silent", (s, hooks) -> hooks.jobOrder((x, y) -> 0)),
            plugin(
                "b-first",
                (s, hooks) ->
                    hooks.jobOrder(
                        (x, y) ->
                            x.info().name().equals("b")
                                ? -1
                                : y.info().name().equals("b") ? 1 : 0)),
            plugin(
                "a-first",
                (s, hooks) -> hooks.jobOrder((x, y) -> x.info().name().equals("a") ? -1 : 1)));
    JobState a = session.job("default/a").orElseThrow();
    JobState b = session.job("default/b").orElseThrow();

    assertThat(session.compareJobs(b, a)).isNegative();
    assertThat(session.compareJobs(a, b)).isPositive();
  }

  @Test
  void everyPredicateMustPassAndScoresAddUpWithWeights() {
    Session session =
        open(
            """
        tiers:
          - plugins: [{name: no-n2}]
          - plugins: [{name: scores}]
        """,
            plugin(
                "no-n2",
                (s, hooks) ->
                    hooks.predicate(
                        (task, node) ->
                            node.name().equals("n2")
                                ? PredicateResult.rejected("no n2")
                                : PredicateResult.FITS)),
            plugin(
                "scores",
                (s, hooks) -> {
                  hooks.nodeScore((task, node) -> 10, 2);
                  hooks.nodeScore((task, node) -> node.index(), 0.5);
                }));
    TaskState task = session.job("default/b").orElseThrow().leader();

    assertThat(session.tiers().check(task, session.node("n1").orElseThrow()).fits()).isTrue();
    assertThat(session.tiers().check(task, session.node("n2").orElseThrow()).reason())
        .isEqualTo("no n2");
    assertThat(session.tiers().score(task, session.node("n2").orElseThrow())).isEqualTo(20.5);
  }

  @Test
  void victimsIntersectWithinATierAndTheFirstTierWithAVictimFunctionDecidesEvenWhenItAllowsNone() {
    Session session =
        open(
            """
        tiers:
          - plugins: [{name: workers-only}, {name: on-n1}]
          - plugins: [{name: all}]
        """,
            plugin(
                "workers-only",
                (s, hooks) ->
                    hooks.preemptableVictims(
                        (p, c) -> c.stream().filter(t -> !t.isLeader()).toList())),
            plugin(
                "on-n1",
                (s, hooks) -> {
                  hooks.preemptableVictims(
                      (p, c) -> c.stream().filter(t -> t.node().name().equals("n1")).toList());
                  hooks.reclaimableVictims((p, c) -> List.of());
                }),
            plugin("all", (s, hooks) -> hooks.reclaimableVictims((p, c) -> c)));
    JobState a = session.job("default/a").orElseThrow();
    TaskState preemptor = session.job("default/b").orElseThrow().leader();

    assertThat(session.tiers().preemptableVictims(preemptor, a.tasks()))
        .extracting(TaskState::podName)
        .containsExactly("a-w-0");
    assertThat(session.tiers().reclaimableVictims(preemptor, a.tasks()))
        .as("on-n1's refusal is a veto, not a hand-over to 'all'")
        .isEmpty();
  }

  @Test
  void readinessNeedsEveryVoteAndOverusedNeedsOne() {
    Session session =
        open(
            """
        tiers:
          - plugins: [{name: votes}]
          - plugins: [{name: never-ready}]
        """,
            plugin(
                "votes",
                (s, hooks) -> {
                  hooks.jobReady(job -> true);
                  hooks.overused(queue -> false);
                }),
            plugin(
                "never-ready",
                (s, hooks) -> {
                  hooks.jobReady(job -> job.info().name().equals("a"));
                  hooks.overused(queue -> true);
                }));

    assertThat(session.isJobReady(session.job("default/a").orElseThrow())).isTrue();
    assertThat(session.isJobReady(session.job("default/b").orElseThrow())).isFalse();
    assertThat(session.tiers().isOverused(session.queue("default").orElseThrow())).isTrue();
  }

  @Test
  void aFunctionRegisteredAfterTheSessionOpenedIsRefusedNamingThePlugin() {
    PluginHooks[] kept = new PluginHooks[1];
    Session session =
        open(
            """
        tiers:
          - plugins: [{name: late}]
        """,
            plugin("late", (s, hooks) -> kept[0] = hooks));

    assertThatThrownBy(() -> kept[0].overused(queue -> true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("late")
        .hasMessageContaining("OVERUSED");
    assertThat(session.tiers().isOverused(session.queue("default").orElseThrow())).isFalse();
  }
}
