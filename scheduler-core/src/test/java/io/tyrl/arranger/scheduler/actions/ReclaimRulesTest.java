package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reclaim rules one at a time, at their edges, on one 8-cpu node shared by queues a and b of
 * equal weight, each asking more than half: each deserves 4 cpu. Queue a runs {@code holding} cpu
 * of one-cpu pods; b's job waits for its four.
 */
class ReclaimRulesTest {

  private static final long CPU = 1000;
  private static final long GIB = 1L << 30;

  private record Cluster(Session session, ReclaimAction.ReclaimRules rules) {

    QueueState queue(String name) {
      return session.queues().stream()
          .filter(queue -> queue.name().equals(name))
          .findFirst()
          .orElseThrow();
    }

    JobState job(String name) {
      return session.jobs().stream()
          .filter(job -> job.key().equals("default/" + name))
          .findFirst()
          .orElseThrow();
    }

    TaskState pending(String name) {
      return job(name).pendingTasks().get(0);
    }

    /** Whether the rules let the reclaimer's pod take {@code pods} of queue a's pods. */
    boolean withinLimitsFreeing(String reclaimer, int pods) {
      return withinLimitsFreeing(reclaimer, pods * CPU, pods * 2L * GIB);
    }

    boolean withinLimitsFreeing(String reclaimer, long cpu, long memory) {
      long[] freed = new long[session.dimensions().size()];
      freed[ResourceDimensions.CPU] = cpu;
      freed[ResourceDimensions.MEMORY] = memory;
      return rules.withinLimits(pending(reclaimer), Map.of(queue("a"), freed));
    }
  }

  private static Cluster cluster(int holding, QueueInfo a, QueueInfo b) {
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(
        job("holder")
            .queue("a")
            .minWorkers(0)
            .leader("cpu", "1", "memory", "2Gi")
            .workers("actor", 7, "cpu", "1", "memory", "2Gi")
            .running("n", holding - 1)
            .build());
    jobs.add(
        job("wanting")
            .queue("b")
            .minWorkers(3)
            .leader("cpu", "1")
            .workers("actor", 3, "cpu", "1")
            .build());
    jobs.add(job("sibling").queue("a").minWorkers(0).leader("cpu", "1").build());
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(node("n").cpu("8").memory("64Gi").build()), jobs, List.of(a, b)),
                Fixtures.defaultConfiguration(),
                T0);
    Cluster cluster = new Cluster(session, new ReclaimAction.ReclaimRules(session));
    assertThat(cluster.queue("a").deserved().toString()).as("a's share").startsWith("cpu 4,");
    assertThat(cluster.queue("b").deserved().toString()).as("b's share").isEqualTo("cpu 4");
    assertThat(cluster.queue("a").allocated(ResourceDimensions.CPU)).isEqualTo(holding * CPU);
    return cluster;
  }

  private static Cluster cluster(int holding) {
    return cluster(holding, queue("a").build(), queue("b").build());
  }

  @Test
  void aQueueBelowItsShareTakesFromAnotherAboveItsOwnOnly() {
    Cluster above = cluster(6);
    assertThat(above.rules().mayReclaim(above.queue("b"))).isTrue();
    assertThat(above.rules().mayEvictFrom(above.job("wanting"), above.job("holder"))).isTrue();
    assertThat(above.rules().mayEvictFrom(above.job("sibling"), above.job("holder")))
        .as("never from its own queue")
        .isFalse();
    assertThat(
            above
                .rules()
                .allowedByPolicies(
                    above.pending("wanting"),
                    above.job("holder").tasks().stream()
                        .filter(task -> !task.isPending())
                        .toList()))
        .as("each of a's pods frees cpu a holds above its share")
        .hasSize(6);

    Cluster atShare = cluster(4);
    assertThat(atShare.rules().mayEvictFrom(atShare.job("wanting"), atShare.job("holder")))
        .as("a holds exactly its share")
        .isFalse();
    assertThat(
            atShare
                .rules()
                .allowedByPolicies(
                    atShare.pending("wanting"),
                    atShare.job("holder").tasks().stream()
                        .filter(task -> !task.isPending())
                        .toList()))
        .isEmpty();
  }

  /**
   * One level up: departments x and y share the 8 cpu, 4 each; in x, x1 holds all of x's 4 against
   * its share of 2 (x2 waits for 2). y1, with nothing, may not take x1's pods: x1 is above its
   * share, but its department is not, and what x1 holds above its share is x2's to take back.
   */
  @Test
  void aTeamAboveItsShareGivesNothingToAnotherDepartmentWhileItsOwnIsWithinItsShare() {
    List<JobInfo> jobs =
        List.of(
            job("x1-job")
                .queue("x1")
                .minWorkers(0)
                .leader("cpu", "1")
                .workers("actor", 3, "cpu", "1")
                .running("n", 3)
                .build(),
            job("x2-job")
                .queue("x2")
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("actor", 1, "cpu", "1")
                .build(),
            job("y1-job")
                .queue("y1")
                .minWorkers(3)
                .leader("cpu", "1")
                .workers("actor", 3, "cpu", "1")
                .build());
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(node("n").cpu("8").memory("64Gi").build()),
                    jobs,
                    List.of(
                        queue("x").build(),
                        queue("x1").parent("x").build(),
                        queue("x2").parent("x").build(),
                        queue("y").build(),
                        queue("y1").parent("y").build())),
                Fixtures.defaultConfiguration(),
                T0);
    Cluster cluster = new Cluster(session, new ReclaimAction.ReclaimRules(session));
    assertThat(cluster.queue("x1").deserved().milliCpu()).isEqualTo(2 * CPU);
    assertThat(cluster.queue("x").deserved().milliCpu()).isEqualTo(4 * CPU);
    assertThat(cluster.queue("x").allocated(ResourceDimensions.CPU)).isEqualTo(4 * CPU);

    assertThat(cluster.rules().mayEvictFrom(cluster.job("y1-job"), cluster.job("x1-job")))
        .isFalse();
    assertThat(cluster.rules().mayEvictFrom(cluster.job("x2-job"), cluster.job("x1-job")))
        .as("within the department, x2 takes back from x1")
        .isTrue();
  }

  @Test
  void aQueueThatIsNotReclaimableGivesNothing() {
    Cluster cluster = cluster(6, queue("a").reclaimable(false).build(), queue("b").build());
    assertThat(cluster.rules().mayEvictFrom(cluster.job("wanting"), cluster.job("holder")))
        .isFalse();
  }

  /** Rule 2's edge: the giving queue may come down to its share of cpu, not below it. */
  @Test
  void theGivingQueueKeepsItsShare() {
    Cluster cluster = cluster(6);
    assertThat(cluster.withinLimitsFreeing("wanting", 2)).as("cpu 6 → 4").isTrue();
    assertThat(cluster.withinLimitsFreeing("wanting", 3)).as("cpu 6 → 3").isFalse();
  }

  /**
   * Rule 4's edge: b reclaims cpu only, a stays within its cpu share either way, but the memory the
   * pods give may take a down to its memory guarantee, not below it.
   */
  @Test
  void theGivingQueueKeepsItsGuaranteeOfWhatItGivesBesides() {
    Cluster cluster =
        cluster(6, queue("a").guarantee("memory", "10Gi").build(), queue("b").build());
    assertThat(cluster.withinLimitsFreeing("wanting", 1)).as("memory 12Gi → 10Gi").isTrue();
    assertThat(cluster.withinLimitsFreeing("wanting", 2)).as("memory 12Gi → 8Gi").isFalse();
    assertThat(cluster(6).withinLimitsFreeing("wanting", 2)).as("without the guarantee").isTrue();
  }

  /** Rule 4 guards what a queue gives: below its guarantee of memory, it may still give cpu. */
  @Test
  void aQueueBelowItsGuaranteeOfOneResourceMayGiveAnother() {
    Cluster cluster =
        cluster(6, queue("a").guarantee("memory", "20Gi").build(), queue("b").build());
    assertThat(cluster.withinLimitsFreeing("wanting", CPU, 0)).as("cpu only").isTrue();
    assertThat(cluster.withinLimitsFreeing("wanting", CPU, GIB)).as("and 1Gi").isFalse();
  }
}
