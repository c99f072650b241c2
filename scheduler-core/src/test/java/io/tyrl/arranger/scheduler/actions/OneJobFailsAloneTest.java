package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.Registry;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A failure while one job is handled (a plugin that throws, standing for a bug or data no rule
 * foresaw) fails that job alone with {@code InvalidJob} and a message naming the step; the action
 * goes on with the other jobs, and nothing the failed step half did stays placed.
 */
class OneJobFailsAloneTest {

  private static final String TIERS =
      """
      tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}, {name: trap}]
        - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
      """;

  private static boolean isBad(String jobName) {
    return jobName.equals("bad");
  }

  static Stream<Arguments> steps() {
    // Both jobs ask for the same: bad is older, so it is handled first and a failure that stopped
    // the
    // action would leave good unplaced.
    List<JobInfo> twoJobs =
        List.of(
            job("bad")
                .created(T0)
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("w", 2, "cpu", "1")
                .build(),
            job("good")
                .created(T0.plusSeconds(1))
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("w", 2, "cpu", "1")
                .build());
    List<JobInfo> bestEffortOnly =
        List.of(
            job("bad").created(T0).minWorkers(0).leader().build(),
            job("good").created(T0.plusSeconds(1)).minWorkers(0).leader().build());
    List<JobInfo> preemptors =
        List.of(
            job("low")
                .priority(1)
                .minWorkers(0)
                .leader("cpu", "1")
                .workers("w", 7, "cpu", "1")
                .running("n1", 7)
                .build(),
            job("bad").priority(9).created(T0).minWorkers(0).leader("cpu", "1").build(),
            job("good")
                .priority(9)
                .created(T0.plusSeconds(1))
                .minWorkers(0)
                .leader("cpu", "1")
                .build());
    // Both waited for victims in the previous cycle; the victims' pods are still being deleted.
    List<JobInfo> resumed =
        List.of(
            job("victim")
                .priority(1)
                .minWorkers(0)
                .leader("cpu", "8")
                .releasing("victim-learner", "n1")
                .build(),
            job("bad")
                .priority(9)
                .created(T0)
                .minWorkers(0)
                .leader("cpu", "4")
                .awaitingVictims()
                .build(),
            job("good")
                .priority(9)
                .created(T0.plusSeconds(1))
                .minWorkers(0)
                .leader("cpu", "4")
                .awaitingVictims()
                .build());
    return Stream.of(
        Arguments.of(
            "preempt: resuming a job that waits for its victims throws",
            "enqueue, preempt",
            resumed,
            (BiConsumer<Session, PluginHooks>)
                (session, hooks) ->
                    hooks.predicate(
                        (task, node) -> {
                          if (isBad(task.job().info().name())) {
                            throw new IllegalStateException("trap");
                          }
                          return PredicateResult.FITS;
                        }),
            "resuming the job failed: java.lang.IllegalStateException: trap"),
        Arguments.of(
            "allocate: a worker's predicate throws after the leader was placed",
            "enqueue, allocate",
            twoJobs,
            (BiConsumer<Session, PluginHooks>)
                (session, hooks) ->
                    hooks.predicate(
                        (task, node) -> {
                          if (isBad(task.job().info().name()) && !task.isLeader()) {
                            throw new IllegalStateException("trap");
                          }
                          return PredicateResult.FITS;
                        }),
            "scheduling the job failed: java.lang.IllegalStateException: trap"),
        Arguments.of(
            "enqueue: the admission check throws",
            "enqueue, allocate",
            twoJobs,
            (BiConsumer<Session, PluginHooks>)
                (session, hooks) ->
                    hooks.jobEnqueueable(
                        job -> {
                          if (isBad(job.info().name())) {
                            throw new IllegalStateException("trap");
                          }
                          return Optional.empty();
                        }),
            "enqueueing the job failed: java.lang.IllegalStateException: trap"),
        Arguments.of(
            "backfill: a best-effort pod's predicate throws",
            "enqueue, backfill",
            bestEffortOnly,
            (BiConsumer<Session, PluginHooks>)
                (session, hooks) ->
                    hooks.predicate(
                        (task, node) -> {
                          if (isBad(task.job().info().name())) {
                            throw new IllegalStateException("trap");
                          }
                          return PredicateResult.FITS;
                        }),
            "backfilling the job failed: java.lang.IllegalStateException: trap"),
        Arguments.of(
            "preempt: choosing victims throws",
            "enqueue, preempt, allocate",
            preemptors,
            (BiConsumer<Session, PluginHooks>)
                (session, hooks) ->
                    hooks.preemptableVictims(
                        (preemptor, candidates) -> {
                          if (isBad(preemptor.job().info().name())) {
                            throw new IllegalStateException("trap");
                          }
                          return candidates;
                        }),
            "preempting for the job failed: java.lang.IllegalStateException: trap"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void theFailingJobFailsAloneAndKeepsNothing(
      String name,
      String actions,
      List<JobInfo> jobs,
      BiConsumer<Session, PluginHooks> trap,
      String message) {
    Registry<PluginDescriptor> plugins = BuiltInPlugins.registry();
    plugins.register(new PluginDescriptor("trap", ArgumentSchema.NONE, arguments -> trap::accept));
    Scheduler scheduler = new Scheduler(plugins, BuiltInActions.registry(), CycleListener.NONE);
    Snapshot snapshot =
        new Snapshot(List.of(node("n1").cpu("8").memory("16Gi").build()), jobs, List.of());

    CycleResult result =
        scheduler.runCycle(
            snapshot,
            new SchedulerConfigurationParser(scheduler.vocabulary())
                .parse("actions: \"" + actions + "\"\n" + TIERS),
            T0);

    JobDecision bad = result.decision("default/bad");
    assertThat(bad.reason()).isEqualTo(ReasonCode.INVALID_JOB);
    assertThat(bad.message()).isEqualTo(message);
    assertThat(bad.allocations()).isEmpty();
    JobDecision good = result.decision("default/good");
    assertThat(good.reason()).isNotEqualTo(ReasonCode.INVALID_JOB);
    // Placed, or (preempt) room made for it: victims chosen, or pipelined onto room being released.
    boolean placed =
        good.state() == ScheduleState.SCHEDULED_SUCCEED && !good.allocations().isEmpty();
    boolean waitsForRoom = good.reason() == ReasonCode.WAITING_FOR_VICTIMS;
    assertThat(placed || waitsForRoom || !result.victimsFor("default/good").isEmpty())
        .as("good went on: " + good)
        .isTrue();
  }
}
