package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTest {

  private static Session open(List<JobInfo> jobs) {
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(
                List.of(node("n").cpu("8").memory("16Gi").build()),
                jobs,
                List.of(
                    queue("a").build(),
                    queue("b").build(),
                    queue("drf").policy(JobQueuePolicy.DRF).build())),
            Fixtures.defaultConfiguration(),
            T0);
  }

  private static List<String> ordered(Session session) {
    List<JobState> jobs = new ArrayList<>(session.jobs());
    jobs.sort(session::compareJobs);
    return jobs.stream().map(job -> job.info().name()).toList();
  }

  @Test
  void jobsAreOrderedByQueueThenQueuePolicyThenPluginsThenKey() {
    Session session =
        open(
            List.of(
                job("b-high").queue("b").priority(9).leader("cpu", "1").build(),
                job("a-low-z").queue("a").priority(1).leader("cpu", "1").build(),
                job("a-low-y").queue("a").priority(1).leader("cpu", "1").build(),
                job("a-high").queue("a").priority(5).leader("cpu", "1").build(),
                job("a-drf")
                    .queue("a")
                    .priority(8)
                    .jobQueuePolicy(JobQueuePolicy.DRF)
                    .leader("cpu", "1")
                    .build(),
                job("drf-priority")
                    .queue("drf")
                    .priority(8)
                    .jobQueuePolicy(JobQueuePolicy.PRIORITY)
                    .leader("cpu", "1")
                    .build(),
                job("drf-own").queue("drf").leader("cpu", "1").build()));

    // Queue a's own order is Priority: its jobs following it come first, by priority, then by key;
    // the job overriding it with DRF comes after them. In queue drf the job following DRF comes
    // first.
    assertThat(ordered(session))
        .containsExactly(
            "a-high", "a-low-y", "a-low-z", "a-drf", "b-high", "drf-own", "drf-priority");
  }

  @Test
  void comparingAJobWithItselfIsZeroAndTheOrderIsAntisymmetric() {
    Session session =
        open(
            List.of(
                job("x").queue("a").leader("cpu", "1").build(),
                job("y").queue("a").leader("cpu", "1").build()));
    JobState x = session.job("default/x").orElseThrow();
    JobState y = session.job("default/y").orElseThrow();

    assertThat(session.compareJobs(x, x)).isZero();
    assertThat(Integer.signum(session.compareJobs(x, y)))
        .isEqualTo(-Integer.signum(session.compareJobs(y, x)))
        .isNotZero();
  }

  @Test
  void aPodBeingDeletedStaysOnItsNodeAsReleasingAndIsNotPlacedAgainMeanwhile() {
    Session session =
        open(
            List.of(
                job("j")
                    .queue("a")
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .workers("w", 1, "cpu", "2")
                    .placed("j-learner", "n")
                    .releasing("j-w-0", "n")
                    .build()));
    JobState job = session.job("default/j").orElseThrow();
    TaskState worker = job.tasks().get(1);
    NodeState node = session.node("n").orElseThrow();

    assertThat(worker.status()).isEqualTo(TaskStatus.RELEASING);
    assertThat(worker.node()).isSameAs(node);
    assertThat(worker.isPending()).isFalse();
    assertThat(node.used(ResourceDimensions.CPU)).isEqualTo(3000);
    assertThat(node.releasing(ResourceDimensions.CPU)).isEqualTo(2000);
    assertThat(job.placedTasks()).as("only the leader counts for the job").isEqualTo(1);
  }

  @Test
  void everyEvictionStartsANewReleaseGenerationAndADiscardGoesBackToTheOldOne() {
    Session session =
        open(
            List.of(
                job("j")
                    .queue("a")
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .workers("w", 2, "cpu", "1")
                    .placed("j-w-0", "n")
                    .placed("j-w-1", "n")
                    .build()));
    JobState job = session.job("default/j").orElseThrow();
    long start = session.releaseGeneration();

    Statement first = session.newStatement();
    first.evict(job.tasks().get(1));
    long afterOne = session.releaseGeneration();
    first.evict(job.tasks().get(2));
    long afterTwo = session.releaseGeneration();
    first.discard();

    assertThat(afterOne).isGreaterThan(start);
    assertThat(afterTwo).isGreaterThan(afterOne);
    assertThat(session.releaseGeneration()).isEqualTo(start);
  }

  @Test
  void withoutAGangPluginAJobIsReadyOnceItsLeaderIsPlacedAndPartialPlacementsAreNotKept() {
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(node("n").cpu("8").memory("16Gi").build()),
                    List.of(
                        job("j")
                            .minWorkers(2)
                            .leader("cpu", "1")
                            .workers("w", 2, "cpu", "1")
                            .build()),
                    List.of()),
                Fixtures.configuration(
                    "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n      - name: predicates\n"),
                T0);
    JobState job = session.job("default/j").orElseThrow();

    assertThat(session.isJobReady(job)).isFalse();
    assertThat(session.tiers().mayKeepPartialPlacements(job)).isFalse();
    session.newStatement().allocate(job.leader(), session.node("n").orElseThrow());
    assertThat(session.isJobReady(job)).isTrue();
  }

  @Test
  void aQueueCapabilityMayNameAResourceNoNodeOrPodHas() {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n").cpu("8").memory("16Gi").build()),
            List.of(job("j").queue("capped").minWorkers(0).leader("cpu", "1").build()),
            List.of(queue("capped").capability("cpu", "4", "example.com/fpga", "2").build()));

    var result = Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(result.decision("default/j").allocations()).containsEntry("j-learner", "n");
  }
}
