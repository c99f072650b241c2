package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tree's protections in one cycle of the default configuration: an invalid queue stops only its
 * own subtree, limits hold at every level, surplus goes before any core, a core is safe until its
 * queue's minimum runtime has passed, what a queue holds within its fair share (and so within its
 * guarantee) is not reclaimed, and a job that may not be preempted runs only within guarantees.
 */
class QueueTreeRulesTest {

  private static NodeInfo gpuNode(String name, int gpus) {
    return node(name).cpu("64").memory("256Gi").gpu(gpus).build();
  }

  private static CycleResult cycle(List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> q) {
    return cycle(nodes, jobs, q, T0.plusSeconds(3600));
  }

  private static CycleResult cycle(
      List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues, Instant now) {
    return Fixtures.scheduler()
        .runCycle(new Snapshot(nodes, jobs, queues), Fixtures.defaultConfiguration(), now);
  }

  private static Fixtures.JobBuilder gpuJob(String name, String queue, int gpus, int minWorkers) {
    return job(name)
        .queue(queue)
        .minWorkers(minWorkers)
        .leader("cpu", "1", Resource.GPU, "1")
        .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1");
  }

  @Test
  void anInvalidQueueStopsOnlyTheJobsUnderItAndSaysWhy() {
    List<QueueInfo> queues =
        List.of(
            queue("fine").build(),
            queue("orphan").parent("ghost").build(),
            queue("loop1").parent("loop2").build(),
            queue("loop2").parent("loop1").build(),
            queue("overpromised").guarantee(Resource.GPU, "4").build(),
            queue("c1").parent("overpromised").guarantee(Resource.GPU, "3").build(),
            queue("c2").parent("overpromised").guarantee(Resource.GPU, "3").build(),
            queue("inner").build(),
            queue("leaf").parent("inner").build());
    List<JobInfo> jobs =
        List.of(
            gpuJob("fine-job", "fine", 1, 0).build(),
            gpuJob("orphan-job", "orphan", 1, 0).build(),
            gpuJob("loop-job", "loop1", 1, 0).build(),
            gpuJob("c1-job", "c1", 1, 0).build(),
            gpuJob("inner-job", "inner", 1, 0).build(),
            gpuJob("leaf-job", "leaf", 1, 0).build());

    CycleResult result = cycle(List.of(gpuNode("g", 8)), jobs, queues);

    assertThat(result.decision("default/fine-job").allocations()).hasSize(1);
    assertThat(result.decision("default/leaf-job").allocations()).hasSize(1);
    assertInvalid(result, "orphan-job", "queue orphan is invalid: its parent ghost does not exist");
    assertInvalid(
        result,
        "loop-job",
        "queue loop1 is invalid: its parents form a cycle: loop1 → loop2 → loop1");
    assertInvalid(
        result,
        "c1-job",
        "queue overpromised is invalid: its children are guaranteed nvidia.com/gpu 6 in total,"
            + " more than its own guarantee of 4");
    assertInvalid(
        result,
        "inner-job",
        "queue inner is invalid: it has children (leaf) and 1 job(s) of its own: jobs go in leaf"
            + " queues only");
    assertThat(result.queues().get("orphan").treeProblem())
        .isEqualTo("its parent ghost does not exist");
    assertThat(result.queues().get("c1").treeProblem()).isNull();
    assertThat(result.queues().get("fine").treeProblem()).isNull();
  }

  private static void assertInvalid(CycleResult result, String job, String message) {
    JobDecision decision = result.decision("default/" + job);
    assertThat(decision.allocations()).as(job).isEmpty();
    assertThat(decision.reason()).as(job).isEqualTo(ReasonCode.INVALID_QUEUE);
    assertThat(decision.message()).as(job).isEqualTo(message);
  }

  @Test
  void aRunningJobUnderAQueueThatBecameInvalidKeepsWhatItHolds() {
    JobInfo running = gpuJob("r", "team", 2, 1).running("g", 1).stage(Stage.RUNNING).build();

    CycleResult result =
        cycle(
            List.of(gpuNode("g", 4)),
            List.of(running, gpuJob("other", "fine", 4, 3).build()),
            List.of(queue("team").parent("gone").build(), queue("fine").weight(9).build()));

    assertThat(result.decision("default/r").allocations())
        .as(result.decision("default/r").toString())
        .hasSize(2);
    assertThat(result.allVictims()).isEmpty();
  }

  @Test
  void aLimitHoldsAtEveryLevelAndThePendingReasonNamesTheLevel() {
    List<QueueInfo> queues =
        List.of(
            queue("research").capability(Resource.GPU, "6").build(),
            queue("rl-a").parent("research").build(),
            queue("rl-b").parent("research").build());
    JobInfo first = gpuJob("a", "rl-a", 4, 3).running("g0", 3).stage(Stage.RUNNING).build();
    JobInfo second = gpuJob("b", "rl-b", 8, 1).build();

    CycleResult result =
        cycle(List.of(gpuNode("g0", 8), gpuNode("g1", 8)), List.of(first, second), queues);

    assertThat(result.decision("default/b").allocations()).hasSize(2);
    assertThat(result.decision("default/b").message())
        .contains("queue research is at its limit: holds 6 of 6 nvidia.com/gpu");
  }

  /**
   * Queue a holds 8 GPUs of 8: a job without surplus and an elastic one with two actors above its
   * minimum. Queue b's 2-GPU job arrives; its share is 2. The two surplus actors go; the core of
   * neither job is touched, though the job without surplus is younger and of lower priority.
   */
  @Test
  void surplusGoesBeforeAnyCore() {
    JobInfo noSurplus =
        gpuJob("strict", "a", 4, 3)
            .priority(1)
            .created(T0.plusSeconds(100))
            .running("g", 3)
            .stage(Stage.RUNNING)
            .build();
    JobInfo elastic =
        gpuJob("elastic", "a", 4, 1).priority(9).running("g", 3).stage(Stage.RUNNING).build();
    JobInfo arriving = gpuJob("b-job", "b", 2, 1).created(T0.plusSeconds(200)).build();

    CycleResult result =
        cycle(
            List.of(gpuNode("g", 8)),
            List.of(noSurplus, elastic, arriving),
            List.of(queue("a").build(), queue("b").build()));

    assertThat(result.allVictims())
        .singleElement()
        .satisfies(
            victim -> {
              assertThat(victim.jobKey()).isEqualTo("default/elastic");
              assertThat(victim.wholeJob()).isFalse();
              assertThat(victim.pods()).hasSize(2);
              assertThat(victim.cause()).isEqualTo(ReasonCode.RECLAIMED);
            });
  }

  /**
   * A core is reclaimed only once its queue's reclaimMinRuntime (here inherited from the parent)
   * has passed since the job started running.
   */
  @Test
  void aCoreIsSafeUntilTheInheritedMinimumRuntimeHasPassed() {
    Instant started = T0.plusSeconds(1000);
    List<QueueInfo> queues =
        List.of(
            queue("dept").reclaimMinRuntime(Duration.ofMinutes(10)).build(),
            queue("a").parent("dept").build(),
            queue("b").build());
    List<JobInfo> jobs =
        List.of(
            gpuJob("core1", "a", 4, 3)
                .running("g", 3)
                .stage(Stage.RUNNING)
                .runningSince(started)
                .build(),
            gpuJob("core2", "a", 4, 3)
                .running("g", 3)
                .stage(Stage.RUNNING)
                .runningSince(started)
                .build(),
            gpuJob("b-job", "b", 4, 3).build());

    CycleResult early =
        cycle(List.of(gpuNode("g", 8)), jobs, queues, started.plus(Duration.ofMinutes(9)));
    CycleResult late =
        cycle(List.of(gpuNode("g", 8)), jobs, queues, started.plus(Duration.ofMinutes(10)));

    assertThat(early.allVictims()).isEmpty();
    assertThat(late.allVictims()).extracting(Victim::wholeJob).containsExactly(true);
  }

  /**
   * Queue a is guaranteed 6 of 8 GPUs and holds 6; queue b, of weight 10, holds 2 and wants 5.
   * Without the guarantee b would deserve 7 and reclaim; with it, b deserves 2 and nothing goes.
   */
  @Test
  void whatAQueueHoldsWithinItsGuaranteeIsNotReclaimed() {
    List<JobInfo> jobs =
        List.of(
            gpuJob("a1", "a", 3, 2).running("g", 2).stage(Stage.RUNNING).build(),
            gpuJob("a2", "a", 3, 2).running("g", 2).stage(Stage.RUNNING).build(),
            gpuJob("b1", "b", 2, 1).running("g", 1).stage(Stage.RUNNING).build(),
            gpuJob("b2", "b", 3, 2).build());
    List<NodeInfo> nodes = List.of(gpuNode("g", 8));

    CycleResult guaranteed =
        cycle(
            nodes,
            jobs,
            List.of(
                queue("a").guarantee(Resource.GPU, "6").build(), queue("b").weight(10).build()));
    CycleResult unguaranteed =
        cycle(nodes, jobs, List.of(queue("a").build(), queue("b").weight(10).build()));

    assertThat(guaranteed.allVictims()).isEmpty();
    assertThat(wholeGpus(guaranteed.queues().get("a").deserved().get(Resource.GPU))).isEqualTo(6);
    assertThat(unguaranteed.allVictims()).isNotEmpty();
  }

  @Test
  void aJobThatMayNotBePreemptedIsAdmittedOnlyWithinItsGuarantee() {
    List<QueueInfo> queues = List.of(queue("a").guarantee(Resource.GPU, "2").build());
    JobInfo protectedJob = gpuJob("kept", "a", 4, 3).preemptable(false).build();
    JobInfo ordinary = gpuJob("plain", "a", 4, 3).build();

    CycleResult refused = cycle(List.of(gpuNode("g", 8)), List.of(protectedJob), queues);
    CycleResult admitted = cycle(List.of(gpuNode("g", 8)), List.of(ordinary), queues);

    assertThat(refused.decision("default/kept").allocations()).isEmpty();
    assertThat(refused.decision("default/kept").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(refused.decision("default/kept").message())
        .isEqualTo(
            "non-preemptible job needs 4 nvidia.com/gpu within guarantee; a has 2 of its 2 free");
    assertThat(admitted.decision("default/plain").allocations()).hasSize(4);
  }

  @Test
  void aJobThatMayNotBePreemptedPlacesNoSurplusBeyondTheGuarantee() {
    List<QueueInfo> queues = List.of(queue("a").guarantee(Resource.GPU, "3").build());
    JobInfo protectedJob = gpuJob("kept", "a", 6, 1).preemptable(false).build();

    CycleResult result = cycle(List.of(gpuNode("g", 8)), List.of(protectedJob), queues);

    assertThat(result.decision("default/kept").allocations()).hasSize(3);
    assertThat(result.decision("default/kept").message())
        .contains(
            "non-preemptible job needs 1 nvidia.com/gpu within guarantee; a has 0 of its 3 free");
  }

  /**
   * Queue a holds its share (4 of 8 GPUs); its next job's core may start on the 4 idle GPUs only
   * while no other queue is owed them. With b's 4-GPU job waiting within b's share, a's job waits
   * and b's starts; without it, a borrows the idle room.
   */
  @Test
  void aCoreStartsAboveItsQueuesShareOnlyOnRoomNoOtherQueueIsOwed() {
    List<QueueInfo> queues = List.of(queue("a").build(), queue("b").build());
    JobInfo holding = gpuJob("a-running", "a", 4, 3).running("g", 3).stage(Stage.RUNNING).build();
    JobInfo borrower = gpuJob("a-next", "a", 2, 1).created(T0).build();
    JobInfo owner = gpuJob("b-job", "b", 4, 3).created(T0.plusSeconds(60)).build();

    CycleResult contested =
        cycle(List.of(gpuNode("g", 8)), List.of(holding, borrower, owner), queues);
    CycleResult alone = cycle(List.of(gpuNode("g", 8)), List.of(holding, borrower), queues);

    assertThat(contested.decision("default/a-next").allocations()).isEmpty();
    assertThat(contested.decision("default/a-next").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(contested.decision("default/a-next").message())
        .isEqualTo(
            "the job's minimum (nvidia.com/gpu 2) would take queue a above its fair share (4 of 4"
                + " held or enqueued), which it may only on free room no other queue is owed: 0"
                + " free, 0 of it owed");
    assertThat(contested.decision("default/b-job").allocations()).hasSize(4);
    assertThat(alone.decision("default/a-next").allocations()).hasSize(2);
  }

  /**
   * Room a running job would grow into is owed like room for a new job. a and b share 8 GPUs, 4
   * each; a's elastic job holds 2 and wants 6 more actors, b's holds its 4, and 2 GPUs are free.
   * b's next job would take b above its share: the free room is a's to grow into, so b's job waits
   * at enqueue and a's job takes the room. Without a's growth, b's job may borrow it.
   */
  @Test
  void roomARunningJobWouldGrowIntoIsOwedToItsQueue() {
    List<QueueInfo> queues = List.of(queue("a").build(), queue("b").build());
    JobInfo growing = gpuJob("a-running", "a", 8, 1).running("g", 1).stage(Stage.RUNNING).build();
    JobInfo full = gpuJob("a-running", "a", 2, 1).running("g", 1).stage(Stage.RUNNING).build();
    JobInfo holding = gpuJob("b-running", "b", 4, 3).running("g", 3).stage(Stage.RUNNING).build();
    JobInfo borrower = gpuJob("b-next", "b", 2, 1).build();

    CycleResult owed = cycle(List.of(gpuNode("g", 8)), List.of(growing, holding, borrower), queues);
    CycleResult lent = cycle(List.of(gpuNode("g", 8)), List.of(full, holding, borrower), queues);

    assertThat(owed.decision("default/b-next").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(owed.decision("default/b-next").message())
        .isEqualTo(
            "the job's minimum (nvidia.com/gpu 2) would take queue b above its fair share (4 of 4"
                + " held or enqueued), which it may only on free room no other queue is owed: 2"
                + " free, 2 of it owed");
    assertThat(owed.decision("default/a-running").allocations()).hasSize(4);
    assertThat(lent.decision("default/b-next").allocations()).hasSize(2);
  }

  /**
   * A queue is owed room if any of its waiting jobs could start on it: b's first job needs 8 GPUs,
   * more than b's share of 4, but its second needs 1: it is enqueued first (b is further below its
   * share) and the 3 GPUs left are still b's, so a's next job may not borrow them.
   */
  @Test
  void aQueueIsOwedRoomWhenAnyOfItsWaitingJobsCouldStartOnIt() {
    List<QueueInfo> queues = List.of(queue("a").build(), queue("b").build());
    JobInfo holding = gpuJob("a-running", "a", 4, 3).running("g", 3).stage(Stage.RUNNING).build();
    JobInfo borrower = gpuJob("a-next", "a", 2, 1).build();
    JobInfo big = gpuJob("b-big", "b", 8, 7).build();
    JobInfo small = gpuJob("b-small", "b", 1, 0).build();

    CycleResult result =
        cycle(List.of(gpuNode("g", 8)), List.of(holding, borrower, big, small), queues);

    assertThat(result.decision("default/a-next").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/a-next").message()).endsWith("3 free, 3 of it owed");
    assertThat(result.decision("default/b-small").allocations()).hasSize(1);
  }

  /**
   * 3 cpu split between two queues that each want more is 1500m each. a holds 2 cpu; b, below its
   * share, is served first and enqueues its job on the 1 cpu free; a's next job is refused, and the
   * refusal states every amount in one unit ("2000m of 1500m", not "2 of 1500m").
   */
  @Test
  void aRefusalComparesAmountsInOneUnit() {
    NodeInfo node = node("n").cpu("3").memory("64Gi").build();
    List<JobInfo> jobs =
        List.of(
            job("a-running")
                .queue("a")
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("w", 1, "cpu", "1")
                .running("n", 1)
                .stage(Stage.RUNNING)
                .build(),
            job("a-next").queue("a").minWorkers(0).leader("cpu", "1").created(T0).build(),
            job("b-job")
                .queue("b")
                .minWorkers(0)
                .leader("cpu", "1")
                .workers("w", 1, "cpu", "1")
                .created(T0.plusSeconds(60))
                .build());

    CycleResult result =
        cycle(List.of(node), jobs, List.of(queue("a").build(), queue("b").build()));

    assertThat(result.decision("default/a-next").message())
        .isEqualTo(
            "the job's minimum (cpu 1) would take queue a above its fair share (2000m of 1500m"
                + " held or enqueued), which it may only on free room no other queue is owed:"
                + " 0m free, 0m of it owed");
  }

  @Test
  void theDefaultQueueStaysATopLevelLeaf() {
    CycleResult result =
        cycle(
            List.of(gpuNode("g", 8)),
            List.of(
                gpuJob("d-job", "default", 1, 0).build(), gpuJob("c-job", "child", 1, 0).build()),
            List.of(
                queue("default").parent("other").build(),
                queue("other").build(),
                queue("child").parent("default").build()));

    assertInvalid(
        result,
        "d-job",
        "queue default is invalid: the default queue stays a top-level leaf; it cannot have parent"
            + " other");
    assertInvalid(
        result,
        "c-job",
        "queue child is invalid: its parent is the default queue, which stays a top-level leaf and"
            + " has no children");
  }

  /** Two jobs that may not be preempted, each within the guarantee alone, not together. */
  @Test
  void jobsThatMayNotBePreemptedShareTheGuaranteeWithinOneCycle() {
    CycleResult result =
        cycle(
            List.of(gpuNode("g", 8)),
            List.of(
                gpuJob("first", "a", 3, 2).preemptable(false).build(),
                gpuJob("second", "a", 3, 2).preemptable(false).created(T0.plusSeconds(1)).build()),
            List.of(queue("a").guarantee(Resource.GPU, "4").build()));

    assertThat(result.decision("default/first").allocations()).hasSize(3);
    assertThat(result.decision("default/second").reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/second").message())
        .isEqualTo(
            "non-preemptible job needs 3 nvidia.com/gpu within guarantee; a has 1 of its 4 free");
  }

  /**
   * Preempting within a queue honours its preemptMinRuntime, inherited from the parent, for a job's
   * core.
   */
  @Test
  void aCoreIsSafeFromPreemptionUntilTheInheritedMinimumRuntimeHasPassed() {
    Instant started = T0.plusSeconds(1000);
    List<QueueInfo> queues =
        List.of(
            queue("dept").preemptMinRuntime(Duration.ofMinutes(5)).build(),
            queue("a").parent("dept").build());
    List<JobInfo> jobs =
        List.of(
            gpuJob("low", "a", 8, 7)
                .priority(1)
                .running("g", 7)
                .stage(Stage.RUNNING)
                .runningSince(started)
                .build(),
            gpuJob("high", "a", 4, 3).priority(9).build());
    Snapshot snapshot = new Snapshot(List.of(gpuNode("g", 8)), jobs, queues);

    CycleResult early =
        Fixtures.scheduler()
            .runCycle(
                snapshot, Fixtures.preemptingConfiguration(), started.plus(Duration.ofMinutes(4)));
    CycleResult late =
        Fixtures.scheduler()
            .runCycle(
                snapshot, Fixtures.preemptingConfiguration(), started.plus(Duration.ofMinutes(5)));

    assertThat(early.allVictims()).isEmpty();
    assertThat(late.allVictims()).extracting(Victim::wholeJob).containsExactly(true);
  }

  /**
   * Enqueue counts what other queues hold above their fair share as room for a job whose queue is
   * owed that much: with weights 3 and 1 and queue a holding all 16 GPUs, b is owed 4, so b's job
   * of minimum 3 is admitted (and waits for reclaim), and one of minimum 5 is not. Run without
   * reclaim so that enqueue's verdict is what the job says.
   */
  @Test
  void enqueueCountsRoomOtherQueuesHoldAboveTheirShareUpToWhatTheQueueIsOwed() {
    List<NodeInfo> nodes = List.of(gpuNode("g0", 8), gpuNode("g1", 8));
    List<QueueInfo> queues = List.of(queue("a").weight(3).build(), queue("b").build());
    JobInfo holder =
        gpuJob("a-job", "a", 16, 2)
            .running("g0", 7)
            .placed("a-job-actor-7", "g1")
            .placed("a-job-actor-8", "g1")
            .placed("a-job-actor-9", "g1")
            .placed("a-job-actor-10", "g1")
            .placed("a-job-actor-11", "g1")
            .placed("a-job-actor-12", "g1")
            .placed("a-job-actor-13", "g1")
            .placed("a-job-actor-14", "g1")
            .stage(Stage.RUNNING)
            .build();
    var withoutReclaim =
        Fixtures.configuration(
            io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration.YAML.replace(
                "enqueue, reclaim, allocate, backfill", "enqueue, allocate, backfill"));

    JobDecision owed =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(holder, gpuJob("b-small", "b", 3, 2).build()), queues),
                withoutReclaim,
                T0)
            .decision("default/b-small");
    JobDecision tooBig =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(holder, gpuJob("b-big", "b", 5, 4).build()), queues),
                withoutReclaim,
                T0)
            .decision("default/b-big");

    assertThat(owed.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(tooBig.reason()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(tooBig.message())
        .isEqualTo(
            "the job's minimum (nvidia.com/gpu 5) would take queue b above its fair share (0 of 4"
                + " held or enqueued), which it may only on free room no other queue is owed: 0"
                + " free, 0 of it owed");
  }

  /**
   * One node of 8 GPUs. Department b deserves 5 and holds 6, all in team b1, whose share inside b
   * is 3; team a1 (department a, deserving 3) holds 1 and wants a 2-GPU pod. Only a 2-GPU actor of
   * b1 can make room, and it would leave b1 above its own share but department b below its share:
   * so a1 takes nothing. With the same queues flat, a1 takes it. (Team b2's waiting job, which
   * lowers b1's share, evicts nobody itself: its preemptionPolicy is Never.)
   */
  @Test
  void reclaimNeverTakesAVictimsBranchBelowItsShare() {
    List<JobInfo> jobs =
        List.of(
            job("a1-run")
                .queue("a1")
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "1")
                .running("n", 0)
                .stage(Stage.RUNNING)
                .build(),
            job("a1-new")
                .queue("a1")
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "2")
                .created(T0.plusSeconds(5))
                .build(),
            job("b1-run")
                .queue("b1")
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "2")
                .workers("actor", 2, "cpu", "1", Resource.GPU, "2")
                .running("n", 2)
                .stage(Stage.RUNNING)
                .build(),
            job("b2-new")
                .queue("b2")
                .minWorkers(0)
                .leader("cpu", "1", Resource.GPU, "2")
                .created(T0.plusSeconds(5))
                .preemptionPolicy(io.tyrl.arranger.scheduler.api.PreemptionPolicy.NEVER)
                .build());
    List<NodeInfo> nodes = List.of(gpuNode("n", 8));

    CycleResult tree =
        cycle(
            nodes,
            jobs,
            List.of(
                queue("dept-a").build(),
                queue("dept-b").build(),
                queue("a1").parent("dept-a").build(),
                queue("b1").parent("dept-b").build(),
                queue("b2").parent("dept-b").build()));
    CycleResult flat =
        cycle(nodes, jobs, List.of(queue("a1").build(), queue("b1").build(), queue("b2").build()));

    assertThat(wholeGpus(tree.queues().get("dept-b").deserved().get(Resource.GPU))).isEqualTo(5);
    assertThat(wholeGpus(tree.queues().get("b1").deserved().get(Resource.GPU))).isEqualTo(3);
    assertThat(tree.victims()).doesNotContainKey("default/a1-new");
    assertThat(flat.victims()).containsKey("default/a1-new");
  }

  /**
   * Two nodes of 4 GPUs. Queue a asks for one learner of 4; b and c ask for much more and share the
   * other 4 (2 each). b holds 3, c 2, spread so that no node frees 4 GPUs by taking b down to its
   * share alone: the free room is there, but in pieces. a is below its share, but reclaim takes
   * nothing from a queue within its own, so without a guarantee nothing is evicted.
   */
  @Test
  void aQueueBelowItsShareTakesNothingFromQueuesWithinTheirShares() {
    CycleResult result = cycle(fragmentedNodes(), fragmentedJobs(), fragmentedQueues(null));

    assertThat(result.victimsFor("default/learner")).isEmpty();
    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * One node of 8 cpu and 8 GPUs. Queue gpu is guaranteed 2 GPUs and holds them with cpu-heavy pods
   * (8 cpu): far above its cpu share of 4. Queue cpu wants 4 cpu. Without the guarantee, reclaim
   * takes gpu's elastic actor: the cpu it frees counts for more than the GPU gpu falls below its
   * share. With it, the actor stays: no reclaim takes a queue below its guarantee of a resource it
   * gives, though the queue is above its share of another.
   */
  @Test
  void reclaimByCpuShareNeverTakesAQueueBelowItsGpuGuarantee() {
    NodeInfo node = node("n").cpu("8").memory("64Gi").gpu(8).build();
    List<JobInfo> jobs =
        List.of(
            job("gpu-job")
                .queue("gpu")
                .minWorkers(0)
                .leader("cpu", "4", Resource.GPU, "1")
                .workers("actor", 1, "cpu", "4", Resource.GPU, "1")
                .running("n", 1)
                .stage(Stage.RUNNING)
                .build(),
            job("cpu-job").queue("cpu").minWorkers(0).leader("cpu", "4").build());
    List<QueueInfo> guaranteed =
        List.of(queue("gpu").guarantee(Resource.GPU, "2").build(), queue("cpu").build());
    List<QueueInfo> unguaranteed = List.of(queue("gpu").build(), queue("cpu").build());

    CycleResult withGuarantee = cycle(List.of(node), jobs, guaranteed);
    CycleResult withoutGuarantee = cycle(List.of(node), jobs, unguaranteed);

    assertThat(withoutGuarantee.allVictims())
        .extracting(Victim::jobKey)
        .containsExactly("default/gpu-job");
    assertThat(withGuarantee.allVictims()).isEmpty();
  }

  /**
   * Queue a runs two jobs of an 8-GPU learner (one node each) and a cpu actor on a cpu node: 16
   * GPUs against a share of 8, and exactly its cpu share, since b asks for little cpu. b's learner
   * needs a whole GPU node, so one of a's jobs must go whole. Its actor frees only cpu, which a
   * does not hold above its share; the job as a whole frees GPUs a holds above its share, so it is
   * a victim all the same, and the reclaim lowers the total shortfall. One is enough.
   */
  @Test
  void aJobWhoseCpuActorsFreeNothingReclaimedIsStillReclaimedWhole() {
    List<NodeInfo> nodes =
        List.of(gpuNode("g0", 8), gpuNode("g1", 8), node("c0").cpu("64").memory("256Gi").build());
    JobInfo a1 = gpuLearnerWithCpuActor("a1", "g0");
    JobInfo a2 = gpuLearnerWithCpuActor("a2", "g1");
    JobInfo wanting =
        job("b1").queue("b").minWorkers(0).leader("cpu", "8", Resource.GPU, "8").build();

    CycleResult result =
        cycle(nodes, List.of(a1, a2, wanting), List.of(queue("a").build(), queue("b").build()));

    assertThat(result.queues().get("a").deserved().get(Resource.GPU)).isEqualTo(8_000);
    assertThat(result.queues().get("a").deserved().milliCpu())
        .as("a asks for 48 cpu and is owed all of it: its actors are not above its cpu share")
        .isEqualTo(48_000);
    assertThat(result.allVictims()).extracting(Victim::wholeJob).containsExactly(true);
    assertThat(result.allVictims().get(0).jobKey()).isIn("default/a1", "default/a2");
    assertThat(result.allVictims().get(0).pods()).as("its learner and its cpu actor").hasSize(2);
  }

  private static JobInfo gpuLearnerWithCpuActor(String name, String gpuNode) {
    return job(name)
        .queue("a")
        .minWorkers(1)
        .leader("cpu", "8", Resource.GPU, "8")
        .workers("actor", 1, "cpu", "16")
        .placed(name + "-learner", gpuNode)
        .placed(name + "-actor-0", "c0")
        .stage(Stage.RUNNING)
        .build();
  }

  static List<NodeInfo> fragmentedNodes() {
    return List.of(gpuNode("g0", 4), gpuNode("g1", 4));
  }

  /** Queues a, b and c; a guaranteed {@code guaranteeOfA} GPUs, or nothing when null. */
  static List<QueueInfo> fragmentedQueues(String guaranteeOfA) {
    return List.of(
        guaranteeOfA == null
            ? queue("a").build()
            : queue("a").guarantee(Resource.GPU, guaranteeOfA).build(),
        queue("b").build(),
        queue("c").build());
  }

  static List<JobInfo> fragmentedJobs() {
    return List.of(
        job("learner").queue("a").minWorkers(0).leader("cpu", "1", Resource.GPU, "4").build(),
        gpuJob("b1", "b", 2, 1).running("g0", 1).stage(Stage.RUNNING).build(),
        gpuJob("c1", "c", 1, 0).running("g0", 0).stage(Stage.RUNNING).build(),
        gpuJob("b2", "b", 1, 0).running("g1", 0).stage(Stage.RUNNING).build(),
        gpuJob("c2", "c", 1, 0).running("g1", 0).stage(Stage.RUNNING).build(),
        gpuJob("b-more", "b", 8, 7).build(),
        gpuJob("c-more", "c", 8, 7).build());
  }

  /**
   * Two nodes equally full: g0 holds only queue x's pods, g1 one of x's and two of y's. x holds 4
   * GPUs against a share of 2 (y weighs 3 and asks for more), so every pod of x is borrowed room. A
   * new pod of y, within its share, goes where no borrowed pods are, leaving g0 to be given back
   * whole; BinPack alone sees two equal nodes and takes the first.
   */
  @Test
  void aPodWithinItsSharePrefersNodesWithoutBorrowedPods() {
    List<QueueInfo> queues = List.of(queue("x").build(), queue("y").weight(3).build());
    List<JobInfo> jobs =
        List.of(
            gpuJob("x-a", "x", 3, 2).running("g0", 2).stage(Stage.RUNNING).build(),
            gpuJob("x-b", "x", 1, 0).running("g1", 0).stage(Stage.RUNNING).build(),
            gpuJob("y-a", "y", 2, 1).running("g1", 1).stage(Stage.RUNNING).build(),
            gpuJob("y-new", "y", 1, 0).build(),
            gpuJob("y-more", "y", 8, 7).build());

    CycleResult result = cycle(List.of(gpuNode("g0", 4), gpuNode("g1", 4)), jobs, queues);

    assertThat(result.decision("default/y-new").allocations())
        .as(result.decision("default/y-new").toString())
        .containsValue("g1");
    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * c holds 6 of 8 GPUs against a share of 3; alpha (share 3) and beta (share 2) wait with minimums
   * of 3 and 2, and 2 GPUs are free. alpha is enqueued first, counting on what c holds above its
   * share, and its minimum leaves the free room 1 short. beta is still owed 2 of c's surplus:
   * alpha's claim on the free room does not use up what beta is owed.
   */
  @Test
  void anotherQueuesEnqueuedMinimumDoesNotUseUpTheSurplusAQueueIsOwed() {
    List<QueueInfo> queues =
        List.of(queue("alpha").build(), queue("beta").build(), queue("c").build());
    List<JobInfo> jobs =
        List.of(
            gpuJob("c1", "c", 4, 3).running("g0", 3).stage(Stage.RUNNING).build(),
            gpuJob("c2", "c", 2, 1).running("g1", 1).stage(Stage.RUNNING).build(),
            gpuJob("alpha-job", "alpha", 3, 2).build(),
            gpuJob("beta-job", "beta", 2, 1).build());

    CycleResult result = cycle(List.of(gpuNode("g0", 4), gpuNode("g1", 4)), jobs, queues);

    JobDecision beta = result.decision("default/beta-job");
    assertThat(beta.reason()).as(beta.toString()).isNotEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(result.decision("default/alpha-job").reason()).isNotEqualTo(ReasonCode.NOT_ENQUEUED);
  }

  /**
   * a holds its share of 8 GPUs (one 4-GPU job on each node) and b 2 of its 8; b waits for a 6-GPU
   * learner that fits on neither node, and pods outside the snapshot are being deleted on both (2
   * GPUs on g0, 4 on g1, nothing idle). a's next job would take a above its GPU share on room b is
   * counting on, so enqueue refuses it; a is still below its share of cpu (its next job asks for
   * more), so reclaim would serve the job — and room being released needs no victim: the job would
   * have been pipelined onto g1 after all, to be reclaimed in turn once b's learner can start.
   */
  @Test
  void aJobEnqueueRefusedDoesNotStartThroughReclaimOnRoomBeingReleased() {
    List<JobInfo> jobs =
        List.of(
            gpuJob("a0", "a", 4, 3).running("g0", 3).stage(Stage.RUNNING).build(),
            gpuJob("a1", "a", 4, 3).running("g1", 3).stage(Stage.RUNNING).build(),
            gpuJob("b0", "b", 2, 1).running("g0", 1).stage(Stage.RUNNING).build(),
            job("b-learner").queue("b").minWorkers(0).leader("cpu", "1", Resource.GPU, "6").build(),
            gpuJob("a-next", "a", 2, 1).build());

    CycleResult result = cycle(nodesReleasingTwoAndFour(), jobs, twoQueues());

    JobDecision next = result.decision("default/a-next");
    assertThat(result.queues().get("a").deserved().get(Resource.GPU)).isEqualTo(8_000);
    assertThat(result.queues().get("a").deserved().milliCpu())
        .as("a asks for 10 cpu, holds 8")
        .isEqualTo(10_000);
    assertThat(next.reason()).as(next.toString()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(next.allocations()).isEmpty();
    assertThat(result.allVictims()).isEmpty();
  }

  /**
   * team-a and team-b share research, which holds the whole cluster through team-a's two elastic
   * jobs. team-b's job is refused at enqueue (research cannot hold its minimum within the cluster's
   * total), yet the job is within team-b's share: evicting its sibling's surplus is what makes the
   * room, so reclaim still serves it.
   */
  @Test
  void aJobRefusedBecauseItsSiblingsHoldTheClusterStillReclaims() {
    List<JobInfo> jobs = new ArrayList<>(teamAFillingTwoNodes());
    jobs.add(gpuJob("b1", "team-b", 4, 3).build());

    CycleResult result = cycle(List.of(gpuNode("g0", 8), gpuNode("g1", 8)), jobs, siblingTeams());

    assertThat(result.decision("default/b1").reason())
        .as(result.decision("default/b1").toString())
        .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
    assertThat(result.allVictims())
        .isNotEmpty()
        .allSatisfy(victim -> assertThat(victim.wholeJob()).isFalse());
  }

  /**
   * What a queue has enqueued counts as held: a holds 2 of its 8 GPUs and has enqueued a 6-GPU
   * learner that fits nowhere yet, so its next 2-GPU job would take it to 10 and is refused; room
   * being released on both nodes (2 and 4 GPUs) is not the next job's through reclaim either.
   */
  @Test
  void aQueuesEnqueuedMinimumCountsWhenReclaimLeavesOutARefusedJob() {
    List<JobInfo> jobs =
        List.of(
            gpuJob("a0", "a", 2, 1).running("g0", 1).stage(Stage.RUNNING).build(),
            gpuJob("b0", "b", 2, 1).running("g0", 1).stage(Stage.RUNNING).build(),
            gpuJob("b1", "b", 2, 1).running("g0", 1).stage(Stage.RUNNING).build(),
            gpuJob("b2", "b", 4, 3).running("g1", 3).stage(Stage.RUNNING).build(),
            job("a-learner").queue("a").minWorkers(0).leader("cpu", "1", Resource.GPU, "6").build(),
            gpuJob("a-next", "a", 2, 1).created(T0.plusSeconds(60)).build());

    CycleResult result = cycle(nodesReleasingTwoAndFour(), jobs, twoQueues());

    assertThat(result.queues().get("a").deserved().get(Resource.GPU)).isEqualTo(8_000);
    assertThat(result.decision("default/a-learner").reason()).isNotEqualTo(ReasonCode.NOT_ENQUEUED);
    JobDecision next = result.decision("default/a-next");
    assertThat(next.reason()).as(next.toString()).isEqualTo(ReasonCode.NOT_ENQUEUED);
    assertThat(next.allocations()).isEmpty();
  }

  /**
   * Only the resources the job asks for count: team-b holds 300Gi of memory against a share of
   * 256Gi (team-a waits for 400Gi more), but its refused job asks for GPUs and cpu alone, in which
   * team-b is below its share: reclaim still serves it.
   */
  @Test
  void aQueueAboveItsShareOfAResourceTheRefusedJobDoesNotAskForStillReclaims() {
    List<JobInfo> jobs = new ArrayList<>(teamAFillingTwoNodes());
    jobs.addAll(
        List.of(
            job("a-memory")
                .queue("team-a")
                .minWorkers(1)
                .leader("cpu", "1", "memory", "200Gi")
                .workers("reader", 1, "cpu", "1", "memory", "200Gi")
                .build(),
            job("b-memory")
                .queue("team-b")
                .minWorkers(1)
                .leader("cpu", "1", "memory", "150Gi")
                .workers("reader", 1, "cpu", "1", "memory", "150Gi")
                .placed("b-memory-learner", "g0")
                .placed("b-memory-reader-0", "g1")
                .stage(Stage.RUNNING)
                .build(),
            gpuJob("b1", "team-b", 4, 3).build()));

    CycleResult result = cycle(List.of(gpuNode("g0", 8), gpuNode("g1", 8)), jobs, siblingTeams());

    assertThat(result.queues().get("team-b").deserved().get(Resource.MEMORY))
        .isLessThan(result.queues().get("team-b").allocated().get(Resource.MEMORY));
    assertThat(result.decision("default/b1").reason())
        .as(result.decision("default/b1").toString())
        .isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /** research, guaranteed 16 GPUs, and its two teams, guaranteed 8 each. */
  private static List<QueueInfo> siblingTeams() {
    return List.of(
        queue("research").guarantee(Resource.GPU, "16").build(),
        queue("team-a").parent("research").guarantee(Resource.GPU, "8").build(),
        queue("team-b").parent("research").guarantee(Resource.GPU, "8").build());
  }

  /** team-a's two elastic 8-GPU jobs, one on each of g0 and g1, 2 of their 7 actors a minimum. */
  private static List<JobInfo> teamAFillingTwoNodes() {
    return List.of(
        gpuJob("a1", "team-a", 8, 2).running("g0", 7).stage(Stage.RUNNING).build(),
        gpuJob("a2", "team-a", 8, 2).running("g1", 7).stage(Stage.RUNNING).build());
  }

  private static List<QueueInfo> twoQueues() {
    return List.of(queue("a").build(), queue("b").build());
  }

  /** Two nodes of 8 GPUs, with pods outside the snapshot being deleted: 2 GPUs on g0, 4 on g1. */
  private static List<NodeInfo> nodesReleasingTwoAndFour() {
    return List.of(
        node("g0").cpu("64").memory("256Gi").gpu(8).releasing(Resource.GPU, "2").build(),
        node("g1").cpu("64").memory("256Gi").gpu(8).releasing(Resource.GPU, "4").build());
  }
}
