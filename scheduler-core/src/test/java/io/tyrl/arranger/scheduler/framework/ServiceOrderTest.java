package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.ServiceOrder;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The order a cycle ends with, which the operator's view counts pending positions from: jobs of a
 * queue by the configured job order, queues by service order as shares stand after the cycle, and
 * the next cycle walks them in that order (the first job of the order is the one placed when room
 * for one appears).
 */
class ServiceOrderTest {

  @Test
  void jobsOfAQueueAreInPriorityOrderAndTheNextCycleServesTheFirstOfThem() {
    // One node, room for one job: the running one. Three wait, with priorities 1, 9 and 5.
    Snapshot waiting =
        new Snapshot(
            List.of(node("n").cpu("4").memory("8Gi").build()),
            List.of(
                job("running").minWorkers(0).leader("cpu", "4").running("n", 0).build(),
                job("low").minWorkers(0).priority(1).leader("cpu", "4").build(),
                job("high").minWorkers(0).priority(9).leader("cpu", "4").build(),
                job("middle").minWorkers(0).priority(5).leader("cpu", "4").build()),
            List.of());

    CycleResult result =
        Fixtures.scheduler().runCycle(waiting, Fixtures.defaultConfiguration(), T0);

    List<String> order = result.order().jobsOf("default");
    assertThat(order.stream().filter(key -> !key.endsWith("/running")).toList())
        .containsExactly("default/high", "default/middle", "default/low");
    assertThat(result.decision("default/high").reasonIfAny()).isPresent();

    // The running job ends: the next cycle places the first waiting job of the order.
    Snapshot freed =
        new Snapshot(
            List.of(node("n").cpu("4").memory("8Gi").build()),
            List.of(
                job("low").minWorkers(0).priority(1).leader("cpu", "4").build(),
                job("high").minWorkers(0).priority(9).leader("cpu", "4").build(),
                job("middle").minWorkers(0).priority(5).leader("cpu", "4").build()),
            List.of());
    CycleResult next = Fixtures.scheduler().runCycle(freed, Fixtures.defaultConfiguration(), T0);
    assertThat(next.decision("default/high").reasonIfAny()).isEmpty();
    assertThat(next.decision("default/middle").reasonIfAny()).isPresent();
  }

  @Test
  void queuesAreInServiceOrderEachFollowedByItsSubtree() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("8").memory("16Gi").build()),
            List.of(
                job("a").queue("team-a").minWorkers(0).leader("cpu", "1").build(),
                job("b").queue("team-b").minWorkers(0).leader("cpu", "1").build()),
            List.of(
                queue("org").build(),
                queue("team-a").parent("org").build(),
                queue("team-b").parent("org").build(),
                queue("urgent").priority(10).build(),
                queue("default").build()));

    ServiceOrder order =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0).order();

    assertThat(order.queues().get(0)).as("the higher queue priority first").isEqualTo("urgent");
    int org = order.queues().indexOf("org");
    assertThat(order.queues().subList(org + 1, org + 3))
        .as("org's subtree right after it")
        .containsExactlyInAnyOrder("team-a", "team-b");
    assertThat(order.jobsOf("team-a")).containsExactly("default/a");
    assertThat(order.jobsOf("org")).as("a queue without jobs").isEmpty();
  }
}
