package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedJobs;
import static io.tyrl.arranger.scheduler.actions.QueueTreeRulesTest.fragmentedNodes;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Why-pending for a job preempt or reclaim searched victims for and evicted no one for: its reason
 * ends with why, instead of reading as if nothing had tried (or, with no placing action after them,
 * "not considered").
 *
 * <p>Reclaim's cases use the fragmented cluster of {@link GuaranteeReclaimTest} (two nodes of 4
 * GPUs; queue a waits for a 4-GPU learner, b and c hold single-pod jobs on both nodes), with b and
 * c keeping their jobs whole for 5 hours of {@code reclaimMinRuntime}: every plan that would make
 * room takes a whole job.
 */
class EvictionMissReasonTest {

  private static final String RECLAIM_MISS =
      "reclaim found no room: queue a holds 0 of its 4 nvidia.com/gpu guarantee; on no node would"
          + " the pods it may take or move (of queues b, c) make room for its learner (cpu 1,"
          + " nvidia.com/gpu 4); jobs of queues b, c may not go whole before their"
          + " reclaimMinRuntime";

  private static List<QueueInfo> queuesKeepingTheirJobs(Duration reclaimMinRuntime) {
    return List.of(
        queue("a").guarantee(Resource.GPU, "4").build(),
        queue("b").reclaimMinRuntime(reclaimMinRuntime).build(),
        queue("c").reclaimMinRuntime(reclaimMinRuntime).build());
  }

  private static CycleResult cycle(
      List<JobInfo> jobs, List<QueueInfo> queues, SchedulerConfiguration configuration) {
    return Fixtures.scheduler()
        .runCycle(
            new Snapshot(fragmentedNodes(), jobs, queues), configuration, T0.plusSeconds(3600));
  }

  @Test
  void aQueueBelowItsGuaranteeIsToldWhyReclaimTookNoOne() {
    CycleResult result =
        cycle(
            fragmentedJobs(),
            queuesKeepingTheirJobs(Duration.ofHours(5)),
            Fixtures.defaultConfiguration());

    JobDecision learner = result.decision("default/learner");
    assertThat(result.victims()).isEmpty();
    assertThat(learner.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(learner.message())
        .as("what allocate found, then why reclaim evicted no one")
        .contains("0/2 nodes fit learner")
        .endsWith("; " + RECLAIM_MISS);
    assertThat(
            cycle(
                    fragmentedJobs(),
                    queuesKeepingTheirJobs(Duration.ofHours(5)),
                    Fixtures.defaultConfiguration())
                .decision("default/learner")
                .message())
        .as("the same cluster, the same words: status is not rewritten every cycle")
        .isEqualTo(learner.message());
  }

  @Test
  void aReclaimThatEvictsSaysNothingOfAMiss() {
    CycleResult result =
        cycle(
            fragmentedJobs(),
            queuesKeepingTheirJobs(Duration.ZERO),
            Fixtures.defaultConfiguration());

    assertThat(result.victimsFor("default/learner")).isNotEmpty();
    assertThat(result.decision("default/learner").message()).doesNotContain("reclaim found");
  }

  @Test
  void withNoPlacingActionAfterReclaimTheJobIsNotCalledUnconsidered() {
    CycleResult result =
        cycle(
            fragmentedJobs(),
            queuesKeepingTheirJobs(Duration.ofHours(5)),
            Fixtures.configuration(
                DefaultSchedulerConfiguration.YAML.replace(
                    "enqueue, reclaim, allocate, backfill", "enqueue, reclaim")));

    assertThat(result.decision("default/learner").message())
        .isEqualTo("leader not placed, 0/0 workers placed; " + RECLAIM_MISS);
  }

  /**
   * The guarantee named is of a resource the job asks for: a's memory guarantee, though a holds
   * none of it either, is not what the learner waits for.
   */
  @Test
  void theGuaranteeNamedIsOfAResourceTheJobAsks() {
    List<QueueInfo> queues =
        List.of(
            queue("a").guarantee(Resource.MEMORY, "8Gi", Resource.GPU, "4").build(),
            queue("b").reclaimMinRuntime(Duration.ofHours(5)).build(),
            queue("c").reclaimMinRuntime(Duration.ofHours(5)).build());

    CycleResult result = cycle(fragmentedJobs(), queues, Fixtures.defaultConfiguration());

    assertThat(result.decision("default/learner").message()).endsWith("; " + RECLAIM_MISS);
  }

  /**
   * Without a guarantee, reclaim proper: one node of 4 GPUs held by b's job (2 above b's share of
   * 2), kept whole for 5 hours; a's 2-GPU learner is within a's share.
   */
  @Test
  void aQueueBelowItsShareWithNoGuaranteeIsToldWhoseJobsCouldNotGo() {
    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(node("g0").cpu("64").memory("256Gi").gpu(4).build()),
                    List.of(
                        job("b-job")
                            .queue("b")
                            .minWorkers(0)
                            .leader("cpu", "1", Resource.GPU, "4")
                            .running("g0", 0)
                            .stage(Stage.RUNNING)
                            .build(),
                        job("b-more")
                            .queue("b")
                            .minWorkers(0)
                            .leader("cpu", "1", Resource.GPU, "4")
                            .build(),
                        job("learner")
                            .queue("a")
                            .minWorkers(0)
                            .leader("cpu", "1", Resource.GPU, "2")
                            .build()),
                    List.of(
                        queue("a").build(),
                        queue("b").reclaimMinRuntime(Duration.ofHours(5)).build())),
                Fixtures.defaultConfiguration(),
                T0.plusSeconds(3600));

    assertThat(result.victims()).isEmpty();
    assertThat(result.decision("default/learner").message())
        .endsWith(
            "; reclaim found no room: on no node would the pods it may take or move (of queue b)"
                + " make room for its learner (cpu 1, nvidia.com/gpu 2); jobs of queue b may not go"
                + " whole before their reclaimMinRuntime");
  }

  /**
   * Six or eight queues of one job each fill a node of 8 GPUs, kept whole for 5 hours; a,
   * guaranteed 4, waits for a 4-GPU learner. The reason names six queues and counts the rest.
   */
  @ParameterizedTest(name = "{0} queues")
  @CsvSource({
    "6, 'queues q1, q2, q3, q4, q5, q6'",
    "8, 'queues q1, q2, q3, q4, q5, q6 and 2 more'"
  })
  void pastSixQueuesTheReasonCountsTheRest(int queueCount, String named) {
    List<JobInfo> jobs = new ArrayList<>();
    List<QueueInfo> queues = new ArrayList<>();
    queues.add(queue("a").guarantee(Resource.GPU, "4").build());
    for (int i = 1; i <= queueCount; i++) {
      // The node's 8 GPUs spread over the queues, the first ones taking what does not divide.
      int gpus = 8 / queueCount + (i <= 8 % queueCount ? 1 : 0);
      queues.add(queue("q" + i).reclaimMinRuntime(Duration.ofHours(5)).build());
      jobs.add(
          job("job-" + i)
              .queue("q" + i)
              .minWorkers(0)
              .leader("cpu", "1", Resource.GPU, String.valueOf(gpus))
              .running("g0", 0)
              .stage(Stage.RUNNING)
              .build());
    }
    jobs.add(job("learner").queue("a").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(
                    List.of(node("g0").cpu("64").memory("256Gi").gpu(8).build()), jobs, queues),
                Fixtures.defaultConfiguration(),
                T0.plusSeconds(3600));

    assertThat(result.decision("default/learner").message())
        .contains("(of " + named + ")")
        .endsWith("jobs of " + named + " may not go whole before their reclaimMinRuntime");
  }

  /**
   * A second learner of the same shape is not searched again in the cycle (the first found no
   * room), and is told the same.
   */
  @Test
  void aJobSkippedForTheShapeOfOneThatMissedIsToldTheSame() {
    List<JobInfo> jobs = new ArrayList<>(fragmentedJobs());
    jobs.add(
        job("learner-2")
            .queue("a")
            .created(T0.plusSeconds(1))
            .minWorkers(0)
            .leader("cpu", "1", Resource.GPU, "4")
            .build());
    List<QueueInfo> queues =
        List.of(
            queue("a").guarantee(Resource.GPU, "8").build(),
            queue("b").reclaimMinRuntime(Duration.ofHours(5)).build(),
            queue("c").reclaimMinRuntime(Duration.ofHours(5)).build());

    CycleResult result = cycle(jobs, queues, Fixtures.defaultConfiguration());

    String expected =
        RECLAIM_MISS.replace("4 nvidia.com/gpu guarantee", "8 nvidia.com/gpu guarantee");
    assertThat(result.decision("default/learner").message()).endsWith("; " + expected);
    assertThat(result.decision("default/learner-2").message()).endsWith("; " + expected);
  }

  /** One node of 4 cpu held by {@code low} (priority 1); {@code high} (priority 9) needs all 4. */
  private static CycleResult preemptCycle(List<QueueInfo> queues, SchedulerConfiguration conf) {
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("4").memory("16Gi").build()),
            List.of(
                job("low")
                    .priority(1)
                    .minWorkers(0)
                    .leader("cpu", "4")
                    .placed("low-learner", "n1")
                    .build(),
                job("high")
                    .priority(9)
                    .created(T0.plusSeconds(5))
                    .minWorkers(0)
                    .leader("cpu", "4")
                    .build()),
            queues);
    return Fixtures.scheduler().runCycle(snapshot, conf, T0.plusSeconds(60));
  }

  /**
   * With priority as the only plugin that could matter, no plugin chooses victims: preemption can
   * never evict, and the reason says that rather than blaming the room.
   */
  @Test
  void preemptionWithNoPluginChoosingVictimsSaysSoRatherThanBlamingTheRoom() {
    SchedulerConfiguration priorityOnly =
        Fixtures.configuration(
            """
            actions: "enqueue, allocate, preempt"
            tiers:
              - plugins:
                  - name: priority
              - plugins:
                  - name: predicates
                  - name: nodeorder
            """);

    CycleResult result = preemptCycle(List.of(), priorityOnly);

    String message = result.decision("default/high").message();
    assertThat(result.victims()).isEmpty();
    assertThat(message)
        .endsWith(
            "; preempt found no room: no plugin of the configuration's tiers chooses victims for"
                + " preemption")
        .doesNotContain("would not make room");
  }

  @Test
  void preemptionKeptFromAYoungJobNamesTheMinimumRuntime() {
    CycleResult kept =
        preemptCycle(
            List.of(queue("default").preemptMinRuntime(Duration.ofHours(5)).build()),
            Fixtures.preemptingConfiguration());
    CycleResult evicting =
        preemptCycle(List.of(queue("default").build()), Fixtures.preemptingConfiguration());

    assertThat(kept.victims()).isEmpty();
    assertThat(kept.decision("default/high").message())
        .endsWith(
            "; evicting lower-priority pods would not make room for its gang minimum; jobs of"
                + " queue default may not go whole before their preemptMinRuntime");
    assertThat(evicting.victimsFor("default/high")).isNotEmpty();
  }
}
