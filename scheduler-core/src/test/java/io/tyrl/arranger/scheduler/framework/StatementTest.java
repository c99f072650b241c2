package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementTest {

  private final Session session =
      Fixtures.scheduler()
          .openSession(
              new Snapshot(
                  List.of(node("n").cpu("4").memory("8Gi").build()),
                  List.of(
                      job("j")
                          .minWorkers(1)
                          .leader("cpu", "1")
                          .workers("w", 1, "cpu", "2")
                          .placed("j-w-0", "n")
                          .build()),
                  List.of()),
              Fixtures.defaultConfiguration(),
              T0);
  private final NodeState node = session.node("n").orElseThrow();
  private final JobState job = session.job("default/j").orElseThrow();
  private final TaskState leader = job.leader();
  private final TaskState worker = job.tasks().get(1);

  @Test
  void discardUndoesAllocateAndEvictInReverseOrder() {
    long generation = session.releaseGeneration();
    Statement statement = session.newStatement();
    statement.allocate(leader, node);
    statement.evict(worker);

    assertThat(node.used(ResourceDimensions.CPU)).isEqualTo(3000);
    assertThat(node.releasing(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(job.placedTasks()).isEqualTo(1);

    statement.discard();

    assertThat(leader.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(worker.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(node.used(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(node.used(ResourceDimensions.PODS)).isEqualTo(1);
    assertThat(node.releasing(ResourceDimensions.CPU)).isZero();
    assertThat(job.allocated(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(job.podsOn(node)).isEqualTo(1);
    assertThat(job.queue().allocated(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(session.releaseGeneration()).isEqualTo(generation);
  }

  @Test
  void commitKeepsWhatWasDoneAndClosesTheStatement() {
    Statement statement = session.newStatement();
    statement.allocate(leader, node);
    statement.commit();

    assertThat(leader.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(leader.node()).isSameAs(node);
    assertThat(node.idle(ResourceDimensions.CPU)).isEqualTo(1000);
    assertThat(session.isJobReady(job)).isTrue();
    assertThatThrownBy(statement::discard).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aClosedStatementRefusesEveryOperation() {
    Statement committed = session.newStatement();
    committed.commit();
    Statement discarded = session.newStatement();
    discarded.discard();

    for (Statement closed : new Statement[] {committed, discarded}) {
      assertThat(closed.isClosed()).isTrue();
      assertThatThrownBy(() -> closed.allocate(leader, node))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> closed.pipeline(leader, node))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> closed.evict(worker)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> closed.unallocate(worker)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(closed::commit).isInstanceOf(IllegalStateException.class);
    }
    assertThat(leader.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(worker.status()).isEqualTo(TaskStatus.ALLOCATED);
  }

  @Test
  void pipelineClaimsReleasingResourcesNotIdleOnes() {
    Statement eviction = session.newStatement();
    eviction.evict(worker);
    eviction.commit();
    Statement statement = session.newStatement();
    statement.pipeline(leader, node);

    assertThat(leader.status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(node.idle(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(node.futureIdle(ResourceDimensions.CPU)).isEqualTo(3000);
    statement.discard();
    assertThat(node.futureIdle(ResourceDimensions.CPU)).isEqualTo(4000);
  }

  @Test
  void placingATaskTwiceIsRefused() {
    Statement statement = session.newStatement();
    assertThatThrownBy(() -> statement.allocate(worker, node))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("j-w-0 is ALLOCATED");
  }

  @Test
  void unallocateGivesAPlacementOfThisCycleBackAtOnceAndDiscardRestoresIt() {
    Statement placing = session.newStatement();
    placing.allocate(leader, node);
    placing.commit();
    Statement statement = session.newStatement();

    statement.unallocate(leader);

    assertThat(leader.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(node.used(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(node.releasing(ResourceDimensions.CPU))
        .as("no pod existed, so nothing is released")
        .isZero();
    statement.discard();
    assertThat(leader.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(node.used(ResourceDimensions.CPU)).isEqualTo(3000);
    assertThat(job.queue().allocated(ResourceDimensions.CPU)).isEqualTo(3000);
  }
}
