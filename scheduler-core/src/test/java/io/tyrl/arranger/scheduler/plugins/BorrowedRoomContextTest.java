package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What the borrowed-room score says it reads beyond the node, so that a search may keep its scores
 * for the next pod of a shape: nothing while no pod is borrowed, else whether the pod being placed
 * would borrow. Queue x's share is nothing, so every pod of x borrows; y's is far above its needs.
 */
class BorrowedRoomContextTest {

  private static final Function<QueueState, long[]> SHARES =
      queue -> queue.name().equals("x") ? new long[16] : filled(16, Long.MAX_VALUE / 4);

  private static long[] filled(int size, long value) {
    long[] values = new long[size];
    Arrays.fill(values, value);
    return values;
  }

  private static Session session(boolean xRuns) {
    JobInfo xRunning =
        job("x-running")
            .queue("x")
            .minWorkers(0)
            .leader("cpu", "1")
            .running("n1", 0)
            .stage(Stage.RUNNING)
            .build();
    JobInfo xNew = job("x-new").queue("x").minWorkers(0).leader("cpu", "1").build();
    JobInfo yNew = job("y-new").queue("y").minWorkers(0).leader("cpu", "1").build();
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(
                List.of(node("n1").cpu("8").memory("8Gi").build()),
                xRuns ? List.of(xRunning, xNew, yNew) : List.of(xNew, yNew),
                List.of(queue("x").build(), queue("y").build())),
            Fixtures.defaultConfiguration(),
            T0);
  }

  private static TaskState leaderOf(Session session, String job) {
    return session.job("default/" + job).orElseThrow().leader();
  }

  @Test
  void nothingIsReadWhileNoPodIsBorrowed() {
    Session session = session(false);
    BorrowedRoom room = new BorrowedRoom(session, SHARES);

    assertThat(room.context(leaderOf(session, "x-new"))).isZero();
    assertThat(room.context(leaderOf(session, "y-new"))).isZero();
  }

  @Test
  void onceAPodIsBorrowedWhetherThePodWouldBorrowIsRead() {
    Session session = session(true);
    BorrowedRoom room = new BorrowedRoom(session, SHARES);

    long borrows = room.context(leaderOf(session, "x-new"));
    long withinShare = room.context(leaderOf(session, "y-new"));

    assertThat(borrows).isNotZero();
    assertThat(withinShare).isNotZero().isNotEqualTo(borrows);
    assertThat(room.context(leaderOf(session, "x-new"))).as("asked again").isEqualTo(borrows);
  }
}
