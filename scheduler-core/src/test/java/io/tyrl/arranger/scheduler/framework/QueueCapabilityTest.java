package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueCapabilityTest {

  /**
   * Queue "capped" may hold 4 cpu and 1 pod; job "held" asks 3 cpu, job "more" a leader of 1 cpu
   * and a worker of 2.
   */
  private static Session open(QueueInfo capped) {
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(node("n").cpu("16").memory("32Gi").build()),
                    List.of(
                        job("held").queue("capped").minWorkers(0).leader("cpu", "3").build(),
                        job("more")
                            .queue("capped")
                            .minWorkers(0)
                            .leader("cpu", "1")
                            .workers("actor", 1, "cpu", "2")
                            .build()),
                    List.of(capped)),
                Fixtures.defaultConfiguration(),
                T0);
    Statement statement = session.newStatement();
    statement.allocate(
        session.job("default/held").orElseThrow().leader(), session.node("n").orElseThrow());
    statement.commit();
    return session;
  }

  private static TaskState task(Session session, int index) {
    return session.job("default/more").orElseThrow().tasks().get(index);
  }

  private static QueueCapability capability(Session session) {
    return session.queue("capped").orElseThrow().capability();
  }

  @Test
  void aPodThatFitsUnderTheCapIsNotRefusedAndNeedsNothingFreed() {
    Session session = open(queue("capped").capability("cpu", "4", "pods", "1").build());

    assertThat(capability(session).refusal(task(session, 0)))
        .as("3 + 1 cpu of 4; pods are never capped")
        .isEmpty();
    assertThat(capability(session).shortfall(task(session, 0))).isNull();
    assertThat(capability(session).isExceeded()).isFalse();
  }

  @Test
  void aPodPastTheCapIsRefusedWithTheQueuesAllocationAndShortOfTheExcess() {
    Session session = open(queue("capped").capability("cpu", "4").build());
    TaskState worker = task(session, 1);

    assertThat(capability(session).refusal(worker))
        .contains("queue capped would pass its limit with the pod's 2: holds 3 of 4 cpu");
    long[] shortfall = capability(session).shortfall(worker);
    assertThat(shortfall[ResourceDimensions.CPU])
        .as("3 + 2 - 4 cpu, in millicores")
        .isEqualTo(1000);
    assertThat(shortfall[ResourceDimensions.MEMORY]).isZero();
  }

  @Test
  void theQueueIsExceededOnlyAboveItsCap() {
    Session session = open(queue("capped").capability("cpu", "4").build());
    Statement statement = session.newStatement();
    statement.allocate(task(session, 0), session.node("n").orElseThrow());

    assertThat(capability(session).isExceeded()).as("exactly at the cap").isFalse();

    statement.allocate(task(session, 1), session.node("n").orElseThrow());

    assertThat(capability(session).isExceeded()).isTrue();
  }

  @Test
  void givingBackCountsOnlyTheResourcesTheLastVictimFrees() {
    Session session = open(queue("capped").capability("cpu", "4").build());
    int size = session.dimensions().size();
    long[] none = new long[size];
    long[] oneCpu = new long[size];
    oneCpu[ResourceDimensions.CPU] = 1000;
    long[] twoCpu = new long[size];
    twoCpu[ResourceDimensions.CPU] = 2000;
    long[] memoryOnly = new long[size];
    memoryOnly[ResourceDimensions.MEMORY] = 1;

    assertThat(capability(session).holdsAfterGivingBack(none, oneCpu)).as("3 + 1 of 4").isTrue();
    assertThat(capability(session).holdsAfterGivingBack(oneCpu, oneCpu))
        .as("3 + 1 + 1 of 4")
        .isFalse();
    assertThat(capability(session).holdsAfterGivingBack(none, twoCpu)).isFalse();
    assertThat(capability(session).holdsAfterGivingBack(twoCpu, memoryOnly))
        .as("the cpu given back before is not this victim's")
        .isTrue();
  }

  @Test
  void aQueueWithoutCapabilityIsNeverLimited() {
    Session session = open(queue("capped").build());
    long[] plenty = new long[session.dimensions().size()];
    plenty[ResourceDimensions.CPU] = 1_000_000;

    assertThat(capability(session).refusal(task(session, 1))).isEmpty();
    assertThat(capability(session).shortfall(task(session, 1))).isNull();
    assertThat(capability(session).isExceeded()).isFalse();
    assertThat(capability(session).holdsAfterGivingBack(plenty, plenty)).isTrue();
  }
}
