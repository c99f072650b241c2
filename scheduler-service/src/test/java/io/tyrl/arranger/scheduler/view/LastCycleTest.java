package io.tyrl.arranger.scheduler.view;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The operator's view of a cycle: waiting jobs by position in the cycle's order with their
 * decision's words, nodes with what the cycle left placed on them, the last evictions kept.
 */
class LastCycleTest {

  private final Snapshot snapshot =
      new Snapshot(
          List.of(node("n").cpu("4").memory("8Gi").pods(110).podCount(2).build()),
          List.of(
              job("running").minWorkers(0).leader("cpu", "4").running("n", 0).build(),
              job("low").minWorkers(0).priority(1).leader("cpu", "4").build(),
              job("high").minWorkers(0).priority(9).leader("cpu", "4").build()),
          List.of());

  @Test
  void waitingJobsArePositionedInTheCyclesOrderWithTheirDecisionsWords() {
    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);
    Map<String, JobDecision> decisions = new HashMap<>(result.decisions());
    decisions.put(
        "team/broken",
        new JobDecision(
            ScheduleState.UNSCHEDULED,
            Map.of(),
            ReasonCode.INVALID_JOB,
            "spec.x: not a number",
            null));
    LastCycle lastCycle = new LastCycle();
    assertThat(lastCycle.view()).as("before any cycle").isEmpty();

    lastCycle.record(snapshot, result, decisions);
    CycleView view = lastCycle.view().orElseThrow();

    assertThat(view.waiting())
        .extracting(WaitingJob::name, WaitingJob::queue, WaitingJob::position)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("high", "default", 1),
            org.assertj.core.groups.Tuple.tuple("low", "default", 2),
            org.assertj.core.groups.Tuple.tuple("broken", null, 1));
    WaitingJob high = view.waiting().get(0);
    JobDecision decided = result.decision("default/high");
    assertThat(high.reason()).isEqualTo(decided.reason().statusValue());
    assertThat(high.message()).isEqualTo(decided.message()).isNotEmpty();
    assertThat(high.scheduleState()).isEqualTo(decided.state().wireName());
    assertThat(high.stage()).isEqualTo("Pending");
    assertThat(high.waitingSince()).isNotNull();

    NodeView n = view.nodes().get(0);
    assertThat(n.jobs()).containsExactly(new NodeView.JobOnNode("default", "running", 1));
    ResourceBar cpu =
        n.resources().stream()
            .filter(bar -> bar.resource().equals("cpu"))
            .findFirst()
            .orElseThrow();
    assertThat(cpu.allocated()).isEqualTo(4000);
    assertThat(cpu.scale()).isEqualTo(4000);
    assertThat(cpu.allocatedText()).isEqualTo("4");
    ResourceBar pods =
        n.resources().stream()
            .filter(bar -> bar.resource().equals("pods"))
            .findFirst()
            .orElseThrow();
    assertThat(pods.allocated())
        .as("the two pods the snapshot counted on the node and the job's one placed there")
        .isEqualTo(3);
    assertThat(pods.scale()).isEqualTo(110);

    assertThat(view.queues()).extracting(QueueView::name).containsExactly("default");
    assertThat(lastCycle.view().orElseThrow()).as("built once per cycle").isSameAs(view);
  }

  @Test
  void aQueuesPastUsageShowsInResourceHoursAndAQueueWithoutHistoryShowsNone() {
    DecayedUsage twoGpuHours =
        new DecayedUsage(
            T0,
            List.of(
                new DecayedUsage.Slot(
                    T0.minusSeconds(3600),
                    new TreeMap<>(
                        Map.of("nvidia.com/gpu", 7200.0, "cpu", 360.0, "memory", 1e12)))));
    Snapshot withUsage =
        snapshot.withUsage(Map.of("default", new QueueUsage(twoGpuHours, Map.of())));
    LastCycle lastCycle = new LastCycle();

    lastCycle.record(
        withUsage,
        Fixtures.scheduler().runCycle(withUsage, Fixtures.defaultConfiguration(), T0),
        Map.of());
    QueueView queue = lastCycle.view().orElseThrow().queues().get(0);
    assertThat(queue.usage()).isEqualTo("cpu 0.1 h · nvidia.com/gpu 2.0 h");

    lastCycle.record(
        snapshot,
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0),
        Map.of());
    assertThat(lastCycle.view().orElseThrow().queues().get(0).usage()).isNull();
  }

  @Test
  void theLastEvictionsAreKeptNewestFirst() {
    LastCycle lastCycle = new LastCycle();
    for (int cycle = 0; cycle < LastCycle.EVICTIONS_KEPT + 10; cycle++) {
      Victim victim =
          new Victim(
              "team",
              "victim-" + cycle,
              List.of("victim-" + cycle + "-actor-0"),
              false,
              "preempted by team/high (priority 9 > 1)",
              ReasonCode.PREEMPTED);
      lastCycle.record(
          snapshot,
          new CycleResult(
              T0.plusSeconds(cycle),
              Map.of(),
              Map.of(),
              Duration.ZERO,
              Map.of("team/high", List.of(victim))),
          Map.of());
    }

    List<EvictionView> evictions = lastCycle.view().orElseThrow().evictions();
    assertThat(evictions).hasSize(LastCycle.EVICTIONS_KEPT);
    assertThat(evictions.get(0).victimName()).isEqualTo("victim-" + (LastCycle.EVICTIONS_KEPT + 9));
    assertThat(evictions.get(0))
        .extracting(
            EvictionView::preemptorNamespace,
            EvictionView::preemptorName,
            EvictionView::pods,
            EvictionView::cause)
        .containsExactly("team", "high", 1, "Preempted");
  }
}
