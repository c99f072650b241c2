package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.ScheduleState;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProportionPluginTest {

  /** Seed 002 §2.2: the worked example must reproduce its table. */
  @Test
  void seedExampleDeservedSharesAreReproduced() {
    Snapshot snapshot = new Snapshot(
        List.of(node("node-1").cpu("6").memory("15Gi").build(), node("node-2").cpu("3").memory("12Gi").build()),
        List.of(job("podgroup-1").queue("queue-1").minWorkers(0).leader("cpu", "5", "memory", "10Gi").build(),
            job("podgroup-2").queue("queue-2").minWorkers(0).leader("cpu", "4", "memory", "12Gi").build(),
            job("podgroup-3").queue("queue-2").minWorkers(0).leader("cpu", "6", "memory", "8Gi").build()),
        List.of(queue("queue-1").weight(2).build(), queue("queue-2").weight(4).build()));

    Session session = Fixtures.scheduler().openSession(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(session.queue("queue-1").orElseThrow().deserved()).isEqualTo(Resource.of("cpu", "3", "memory", "9Gi"));
    assertThat(session.queue("queue-2").orElseThrow().deserved()).isEqualTo(Resource.of("cpu", "6", "memory", "18Gi"));
  }

  @Test
  void aQueueRequestingLessThanItsWeightLeavesTheRestToOthers() {
    Snapshot snapshot = new Snapshot(List.of(node("n").cpu("12").memory("12Gi").build()),
        List.of(job("small").queue("light").minWorkers(0).leader("cpu", "1", "memory", "1Gi").build(),
            job("big").queue("heavy").minWorkers(0).leader("cpu", "20", "memory", "20Gi").build()),
        List.of(queue("light").weight(5).build(), queue("heavy").weight(1).build()));

    Session session = Fixtures.scheduler().openSession(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(session.queue("light").orElseThrow().deserved()).isEqualTo(Resource.of("cpu", "1", "memory", "1Gi"));
    assertThat(session.queue("heavy").orElseThrow().deserved()).isEqualTo(Resource.of("cpu", "11", "memory", "11Gi"));
  }

  @Test
  void capabilityCapsDeservedAndAMinimumAboveItNeverFits() {
    Snapshot snapshot = new Snapshot(List.of(node("n").cpu("32").memory("64Gi").build()),
        List.of(job("fits").queue("capped").minWorkers(1).leader("cpu", "2").workers("actor", 1, "cpu", "2").build(),
            job("too-big").queue("capped").minWorkers(2).leader("cpu", "2").workers("actor", 2, "cpu", "2").build()),
        List.of(queue("capped").capability("cpu", "5").build()));

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    // Its jobs request 10 cpu of a 32-cpu cluster; the capability caps what it deserves at 5.
    assertThat(result.queues().get("capped").deserved().milliCpu()).isEqualTo(5000);
    assertThat(result.decision("default/fits").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/too-big").state()).isEqualTo(ScheduleState.SCHEDULED_FAILED);
    assertThat(result.decision("default/too-big").reason()).isEqualTo(ReasonCode.NEVER_FITS);
    assertThat(result.decision("default/too-big").message()).contains("needs cpu 6 but queue capped is capped at 5");
  }

  @Test
  void enqueueHoldsBackAJobItsQueueCannotHoldNext() {
    Snapshot snapshot = new Snapshot(List.of(node("n").cpu("32").memory("64Gi").build()),
        List.of(job("first").queue("q").created(T0).minWorkers(0).leader("cpu", "3").build(),
            job("second").queue("q").created(T0.plusSeconds(1)).minWorkers(0).leader("cpu", "3").build()),
        List.of(queue("q").capability("cpu", "4").build()));

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/first").state()).isEqualTo(ScheduleState.SCHEDULED_SUCCEED);
    assertThat(result.decision("default/second").state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(result.decision("default/second").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/second").message()).contains("queue q cannot hold the job's minimum (cpu 3) within its capability 4");
  }
}
