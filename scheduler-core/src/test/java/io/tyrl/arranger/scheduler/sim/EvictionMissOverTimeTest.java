package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Why-pending over time, the default configuration, a cycle every 10 s: queue b's rigid 2-GPU jobs
 * arrive one a cycle and fill two nodes of 4 GPUs; b keeps its jobs whole for 5 minutes of {@code
 * reclaimMinRuntime}. Queue a, guaranteed 4, is created at cycle 5 and its 4-GPU learner arrives at
 * cycle 6. While b's jobs are younger than 5 minutes no one is evicted and the learner is told why
 * in the same words every cycle; once the oldest have run 5 minutes reclaim takes two of them, the
 * learner is placed and the words are gone. Then b's running jobs end one at a time, each freeing
 * room on one node, and b's evicted jobs take it back; nothing is evicted after the learner runs.
 */
class EvictionMissOverTimeTest {

  private static final Duration PERIOD = Duration.ofSeconds(10);
  private static final Duration MIN_RUNTIME = Duration.ofMinutes(5);
  private static final int LEARNER_ARRIVES = 6;
  private static final int CYCLES = 80;

  @Test
  void aGuaranteeWaitingOutAMinimumRuntimeIsToldWhyEveryCycleAndServedWhenItPasses() {
    ClusterSimulator simulator =
        new ClusterSimulator(
                Fixtures.scheduler(),
                Fixtures.defaultConfiguration(),
                List.of(
                    node("g0").cpu("64").memory("256Gi").gpu(4).build(),
                    node("g1").cpu("64").memory("256Gi").gpu(4).build()),
                List.of(),
                List.of(queue("b").reclaimMinRuntime(MIN_RUNTIME).build()))
            .followingControllerStages();

    Set<String> wordsWhileWaiting = new LinkedHashSet<>();
    Integer placedAt = null;
    List<Victim> victimsBeforeOldEnough = new ArrayList<>();
    List<Victim> victimsAfterPlaced = new ArrayList<>();
    List<String> ended = new ArrayList<>();
    CycleResult result = null;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle < 4) {
        simulator.submit(rigid("b-" + cycle, "b", cycle));
      }
      if (cycle == LEARNER_ARRIVES - 1) {
        simulator.putQueue(queue("a").guarantee(Resource.GPU, "4").build());
      }
      if (placedAt != null && (cycle == placedAt + 5 || cycle == placedAt + 10)) {
        CycleResult last = result;
        String running =
            simulator.jobs().stream()
                .map(JobInfo::key)
                .filter(key -> key.startsWith("default/b-") && !ended.contains(key))
                .filter(key -> !last.decision(key).allocations().isEmpty())
                .findFirst()
                .orElseThrow();
        ended.add(running);
        simulator.complete(running);
      }
      if (cycle == LEARNER_ARRIVES) {
        simulator.submit(
            job("learner")
                .queue("a")
                .created(at(cycle))
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "4")
                .build());
      }
      result = simulator.cycle(at(cycle));
      assertThat(DecisionChecks.overCommitments(simulator.lastSnapshot(), result))
          .as("cycle %d", cycle)
          .isEmpty();
      if (cycle < LEARNER_ARRIVES) {
        continue;
      }
      JobDecision learner = result.decision("default/learner");
      boolean oldEnough = at(cycle).isAfter(T0.plus(MIN_RUNTIME).plus(PERIOD));
      if (!oldEnough) {
        victimsBeforeOldEnough.addAll(result.allVictims());
        assertThat(learner.allocations()).as("cycle %d: the learner waits", cycle).isEmpty();
        wordsWhileWaiting.add(learner.message());
      }
      if (placedAt == null && !learner.allocations().isEmpty()) {
        placedAt = cycle;
      }
      if (placedAt != null && cycle > placedAt) {
        victimsAfterPlaced.addAll(result.allVictims());
        assertThat(learner.message()).as("cycle %d", cycle).doesNotContain("reclaim found");
      }
    }

    assertThat(victimsBeforeOldEnough).as("no one evicted while b's jobs are protected").isEmpty();
    assertThat(wordsWhileWaiting)
        .as("one message while the learner waits")
        .singleElement()
        .asString()
        .endsWith(
            "; reclaim found no room: queue a holds 0 of its 4 nvidia.com/gpu guarantee; on no"
                + " node would the pods it may take or move (of queue b) make room for its learner"
                + " (cpu 1, nvidia.com/gpu 4); jobs of queue b may not go whole before their"
                + " reclaimMinRuntime");
    assertThat(placedAt)
        .as("the learner placed within a few cycles of b's first jobs passing 5 minutes")
        .isNotNull()
        .isBetween(
            (int) (MIN_RUNTIME.toSeconds() / PERIOD.toSeconds()),
            (int) (MIN_RUNTIME.toSeconds() / PERIOD.toSeconds()) + 8);
    assertThat(victimsAfterPlaced).as("nothing moves once the learner runs").isEmpty();
    assertThat(ended).as("two of b's running jobs ended, one at a time").hasSize(2);
    Map<String, Long> gpus = DecisionChecks.wholeGpusByQueue(simulator.lastSnapshot(), result);
    assertThat(gpus)
        .as("a keeps its guarantee, b's evicted jobs run again")
        .containsEntry("a", 4L)
        .containsEntry("b", 4L);
    for (String key : List.of("default/b-0", "default/b-1", "default/b-2", "default/b-3")) {
      if (!ended.contains(key)) {
        assertThat(result.decision(key).allocations()).as(key + " runs").isNotEmpty();
      }
    }
  }

  private static Instant at(int cycle) {
    return T0.plus(PERIOD.multipliedBy(cycle));
  }

  /** A 2-GPU job whose learner and one actor are its minimum. */
  private static JobInfo rigid(String name, String queue, int cycle) {
    return job(name)
        .queue(queue)
        .created(at(cycle))
        .minWorkers(1)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
        .build();
  }
}
