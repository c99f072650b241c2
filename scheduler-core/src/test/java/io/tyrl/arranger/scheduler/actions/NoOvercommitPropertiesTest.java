package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * On random clusters and jobs, no decision over-commits a node; usage is recomputed from the
 * decisions alone.
 */
class NoOvercommitPropertiesTest {

  @Property(tries = 200)
  void noAllocationOverCommitsANode(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 8) int nodeCount,
      @ForAll @IntRange(min = 1, max = 12) int jobCount) {
    Random random = new Random(seed);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      Fixtures.NodeBuilder node =
          Fixtures.node("n" + i)
              .cpu(Integer.toString(1 + random.nextInt(16)))
              .memory((1 + random.nextInt(32)) + "Gi")
              .gpu(random.nextInt(5))
              .pods(2 + random.nextInt(6))
              .used("cpu", random.nextInt(1500) + "m")
              .podCount(random.nextInt(2));
      if (random.nextInt(4) == 0) {
        node.taint("dedicated", "x", TaintEffect.NO_SCHEDULE);
      }
      nodes.add(node.build());
    }
    List<BasicPolicy> policies = NodeOrderPlugin.BASIC_POLICIES;
    List<JobInfo> jobs = new ArrayList<>();
    for (int j = 0; j < jobCount; j++) {
      int workers = random.nextInt(5);
      Fixtures.JobBuilder job =
          Fixtures.job("j" + j)
              .queue(random.nextBoolean() ? "default" : "other")
              .priority(1 + random.nextInt(10))
              .created(T0.plusSeconds(random.nextInt(100)))
              .minWorkers(random.nextInt(workers + 1))
              .basicPolicy(
                  random.nextInt(7) == 0 ? null : policies.get(random.nextInt(policies.size())))
              .gang(random.nextBoolean() ? GangMode.STRICT : GangMode.NON_STRICT)
              .group(random.nextInt(6) == 0 ? "g" + random.nextInt(2) : null)
              .leader(
                  "cpu",
                  (100 + random.nextInt(4000)) + "m",
                  "memory",
                  (1 + random.nextInt(8)) + "Gi");
      if (workers > 0) {
        job.workers(
            "w",
            workers,
            "cpu",
            random.nextInt(3000) + "m",
            "memory",
            random.nextInt(4) + "Gi",
            "nvidia.com/gpu",
            Integer.toString(random.nextInt(3)));
      }
      jobs.add(job.build());
    }
    Snapshot snapshot =
        new Snapshot(nodes, jobs, List.of(QueueInfo.of("default", 1), QueueInfo.of("other", 3)));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(200));

    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
    Set<String> nodeNames = new HashSet<>();
    nodes.forEach(node -> nodeNames.add(node.name()));
    for (JobInfo job : jobs) {
      JobDecision decision = result.decision(job.key());
      Set<String> pods = new HashSet<>();
      job.tasks().stream().map(TaskInfo::podName).forEach(pods::add);
      assertThat(pods).containsAll(decision.allocations().keySet());
      assertThat(nodeNames).containsAll(decision.allocations().values());
      if (decision.state() == ScheduleState.SCHEDULED_SUCCEED) {
        assertThat(decision.allocations()).hasSize(job.tasks().size());
      }
      if (decision.state() != ScheduleState.SCHEDULED_SUCCEED) {
        assertThat(decision.reason())
            .as("a job not fully placed says why: %s", job.key())
            .isNotNull();
        assertThat(decision.message()).isNotBlank();
      }
      if (decision.state() == ScheduleState.UNSCHEDULED && job.gang().mode() == GangMode.STRICT) {
        assertThat(decision.allocations())
            .as("Strict keeps no partial placement: %s", job.key())
            .isEmpty();
      }
    }
  }
}
