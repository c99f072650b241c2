package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reclaim as a table, with the default tiers and reclaim and preempt switched on: a snapshot in;
 * the victims (per reclaimer) and chosen jobs' state and reason out. The rows cover the ground of
 * Volcano's and kube-batch's reclaim and proportion tests — a queue over its share gives back, a
 * queue at its share neither reclaims nor takes idle room it does not deserve, the queue furthest
 * below its share is served first, closed queues and {@code preemptionPolicy: Never} do not
 * reclaim, queue priority orders reclaimers and victims — and no ping-pong between queues above
 * their shares of different resources.
 */
class ReclaimConformanceTest {

  /**
   * @param victims reclaimer job name → victim job name → its evicted pods (sorted,
   *     comma-separated, {@code whole:} first when the whole job goes)
   * @param outcomes job name → {@code State/Reason} of its decision ({@code State} alone when it
   *     has no reason)
   */
  record Row(
      String name,
      List<NodeInfo> nodes,
      List<QueueInfo> queues,
      List<JobInfo> jobs,
      Map<String, Map<String, String>> victims,
      Map<String, String> outcomes) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo cpuNode(String name, int cpu) {
    return node(name).cpu(Integer.toString(cpu)).memory("64Gi").build();
  }

  /** A job of 1-cpu pods: a leader and {@code workers} workers, none required beyond the leader. */
  private static Fixtures.JobBuilder pods(String name, String queue, int workers) {
    return job(name)
        .queue(queue)
        .minWorkers(0)
        .leader("cpu", "1")
        .workers("w", workers, "cpu", "1");
  }

  static Stream<Row> reclaim() {
    return Stream.of(
        new Row(
            "a queue over its share gives one elastic worker back to a queue below it",
            List.of(cpuNode("n1", 3)),
            List.of(queue("over").build(), queue("under").build()),
            List.of(pods("big", "over", 2).running("n1", 2).build(), pods("r", "under", 0).build()),
            Map.of("r", Map.of("big", "big-w-1")),
            Map.of("r", "Unscheduled/WaitingForVictims", "big", "ScheduledPartly/Reclaimed")),
        new Row(
            "a queue at its share is not given idle room another queue deserves",
            List.of(cpuNode("n1", 4)),
            List.of(queue("at").build(), queue("other").build()),
            List.of(
                pods("run", "at", 1).running("n1", 1).build(),
                pods("more", "at", 0).created(T0.plusSeconds(5)).build(),
                job("elsewhere")
                    .queue("other")
                    .minWorkers(0)
                    .leader("cpu", "2")
                    .nodeSelector("pool", "gpu")
                    .build()),
            Map.of(),
            Map.of("more", "Unscheduled/QueueOverused", "run", "ScheduledSucceed")),
        new Row(
            "the queue furthest below its share reclaims first",
            List.of(node("n1").cpu("6").memory("64Gi").used("cpu", "2").build()),
            List.of(queue("over").build(), queue("half").build(), queue("empty").build()),
            List.of(
                pods("big", "over", 2).running("n1", 2).build(),
                pods("big-more", "over", 0).build(),
                pods("half-1", "half", 0).running("n1", 0).build(),
                pods("half-2", "half", 0).build(),
                pods("half-3", "half", 0).build(),
                pods("empty-1", "empty", 0).build(),
                pods("empty-2", "empty", 0).build()),
            Map.of("empty-1", Map.of("big", "big-w-1")),
            Map.of("half-2", "Unscheduled/Unschedulable")),
        new Row(
            "the higher-priority queue reclaims first, whatever the names say",
            List.of(node("n1").cpu("4").memory("64Gi").used("cpu", "1").build()),
            List.of(queue("over").build(), queue("a").build(), queue("b").priority(3).build()),
            List.of(
                pods("big", "over", 2).running("n1", 2).build(),
                pods("a-new", "a", 0).build(),
                pods("b-new", "b", 0).build()),
            Map.of("b-new", Map.of("big", "big-w-1")),
            Map.of("a-new", "Unscheduled/Unschedulable")),
        new Row(
            "a higher-priority queue deserves its demand before its siblings split the rest, so"
                + " only the plain queue gives back",
            List.of(cpuNode("n1", 6)),
            List.of(
                queue("valued").priority(5).build(), queue("plain").build(), queue("q").build()),
            List.of(
                pods("valued-job", "valued", 2)
                    .created(T0.plusSeconds(10))
                    .running("n1", 2)
                    .build(),
                pods("plain-job", "plain", 2).running("n1", 2).build(),
                pods("r1", "q", 0).build(),
                pods("r2", "q", 0).build()),
            Map.of("r1", Map.of("plain-job", "plain-job-w-1")),
            Map.of("r2", "Unscheduled/Unschedulable")),
        new Row(
            "a kube-system job above its queue's share gives nothing back",
            List.of(cpuNode("n1", 3)),
            List.of(queue("over").build(), queue("under").build()),
            List.of(
                pods("big", "over", 2).namespace("kube-system").running("n1", 2).build(),
                pods("r", "under", 0).build()),
            Map.of(),
            Map.of()),
        new Row(
            "a job whose preemptionPolicy is Never does not reclaim",
            List.of(cpuNode("n1", 3)),
            List.of(queue("over").build(), queue("under").build()),
            List.of(
                pods("big", "over", 2).running("n1", 2).build(),
                pods("r", "under", 0).preemptionPolicy(PreemptionPolicy.NEVER).build()),
            Map.of(),
            Map.of("big", "ScheduledSucceed")),
        new Row(
            "a new job of a closed queue is not enqueued and does not reclaim",
            List.of(cpuNode("n1", 3)),
            List.of(queue("over").build(), queue("under").closed().build()),
            List.of(pods("big", "over", 2).running("n1", 2).build(), pods("r", "under", 0).build()),
            Map.of(),
            Map.of("r", "Unscheduled/NotEnqueued", "big", "ScheduledSucceed")),
        new Row(
            "a closed queue's running job goes on: its pending worker is still placed",
            List.of(cpuNode("n1", 4)),
            List.of(queue("shut").closed().build()),
            List.of(
                pods("run", "shut", 2).running("n1", 1).build(), pods("new", "shut", 0).build()),
            Map.of(),
            Map.of("run", "ScheduledSucceed", "new", "Unscheduled/NotEnqueued")),
        new Row(
            "queues above their shares of different resources do not reclaim from each other",
            mixedNodes(),
            List.of(queue("cpu").build(), queue("gpu").build()),
            mixedJobs(),
            Map.of(),
            Map.of("c8", "Unscheduled/Unschedulable")));
  }

  private static List<NodeInfo> mixedNodes() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("n" + i).cpu("6").gpu(6).memory("64Gi").build());
    }
    return nodes;
  }

  /**
   * Each node full with two cpu-heavy pods (2 cpu + 1 GPU) of queue cpu and two GPU-heavy pods (1
   * cpu + 2 GPUs) of queue gpu; four more of each pending. Each queue deserves 12 cpu and 12 GPUs;
   * cpu holds 16 cpu and 8 GPUs, gpu 8 cpu and 16 GPUs.
   */
  private static List<JobInfo> mixedJobs() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Fixtures.JobBuilder cpuHeavy =
          job("c" + i)
              .queue("cpu")
              .created(T0.plusSeconds(i))
              .minWorkers(0)
              .leader("cpu", "2", Resource.GPU, "1");
      Fixtures.JobBuilder gpuHeavy =
          job("g" + i)
              .queue("gpu")
              .created(T0.plusSeconds(i))
              .minWorkers(0)
              .leader("cpu", "1", Resource.GPU, "2");
      jobs.add(i < 8 ? cpuHeavy.running("n" + i / 2, 0).build() : cpuHeavy.build());
      jobs.add(i < 8 ? gpuHeavy.running("n" + i / 2, 0).build() : gpuHeavy.build());
    }
    return jobs;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void reclaim(Row row) {
    Snapshot snapshot = new Snapshot(row.nodes(), row.jobs(), row.queues());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.preemptingConfiguration(), T0.plusSeconds(2000));

    Map<String, Map<String, String>> expected = new TreeMap<>();
    row.victims().forEach((reclaimer, victims) -> expected.put("default/" + reclaimer, victims));
    assertThat(ActionTables.victims(result)).isEqualTo(expected);
    row.outcomes()
        .forEach(
            (job, outcome) -> {
              JobDecision decision = result.decision("default/" + job);
              String actual =
                  decision.state().wireName()
                      + (decision.reason() == null ? "" : "/" + decision.reason().statusValue());
              assertThat(actual).as("job %s: %s", job, decision.message()).isEqualTo(outcome);
            });
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
  }
}
