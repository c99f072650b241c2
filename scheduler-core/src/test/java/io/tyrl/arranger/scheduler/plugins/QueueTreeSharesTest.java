package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.DecisionChecks.wholeGpus;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fair shares in a queue tree, per level: each queue's guarantee first (as far as it has demand),
 * then what is left of its parent's share by priority, then by weight, in whole units, never above
 * a queue's or an ancestor's capability. Snapshot in, each queue's deserved GPUs out (the default
 * configuration, 4 nodes × 4 GPUs).
 */
class QueueTreeSharesTest {

  record Row(
      String name,
      List<QueueInfo> queues,
      Map<String, Integer> demand,
      Map<String, Long> deserved) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Row> shares() {
    return Stream.of(
        new Row(
            "two levels: guarantees first at each level, then weights (the worked example of"
                + " docs/policies.md)",
            List.of(
                queue("research").guarantee(Resource.GPU, "8").build(),
                queue("prod").guarantee(Resource.GPU, "4").build(),
                queue("rl-a").parent("research").guarantee(Resource.GPU, "6").build(),
                queue("rl-b").parent("research").guarantee(Resource.GPU, "2").weight(3).build(),
                queue("serve").parent("prod").guarantee(Resource.GPU, "4").build()),
            Map.of("rl-a", 10, "rl-b", 10, "serve", 2),
            Map.of("research", 14L, "prod", 2L, "rl-a", 7L, "rl-b", 7L, "serve", 2L)),
        new Row(
            "a queue's guarantee holds while its sibling wants everything",
            List.of(
                queue("big").weight(9).build(),
                queue("small").guarantee(Resource.GPU, "6").build()),
            Map.of("big", 16, "small", 16),
            Map.of("big", 9L, "small", 7L)),
        new Row(
            "a guarantee is given only as far as there is demand for it",
            List.of(
                queue("idle-owner").guarantee(Resource.GPU, "12").build(),
                queue("borrower").build()),
            Map.of("idle-owner", 2, "borrower", 16),
            Map.of("idle-owner", 2L, "borrower", 14L)),
        new Row(
            "the higher priority takes what is above the guarantees first, then weights split the"
                + " rest",
            List.of(
                queue("hi").priority(2).build(),
                queue("lo1").weight(1).build(),
                queue("lo2").weight(3).build()),
            Map.of("hi", 6, "lo1", 10, "lo2", 10),
            Map.of("hi", 6L, "lo1", 2L, "lo2", 8L)),
        new Row(
            "guarantees above the cluster are scaled down in proportion",
            List.of(
                queue("x").guarantee(Resource.GPU, "12").build(),
                queue("y").guarantee(Resource.GPU, "12").build()),
            Map.of("x", 16, "y", 16),
            Map.of("x", 8L, "y", 8L)),
        new Row(
            "a parent's capability caps its whole subtree; the rest goes to the other branch",
            List.of(
                queue("dept").weight(3).capability(Resource.GPU, "10").build(),
                queue("other").build(),
                queue("t1").parent("dept").build(),
                queue("t2").parent("dept").build()),
            Map.of("t1", 10, "t2", 10, "other", 20),
            Map.of("dept", 10L, "t1", 5L, "t2", 5L, "other", 6L)),
        new Row(
            "a child's guarantee counts inside its parent's share, not beside it",
            List.of(
                queue("d1").guarantee(Resource.GPU, "4").build(),
                queue("d2").build(),
                queue("d1-t").parent("d1").guarantee(Resource.GPU, "4").build()),
            Map.of("d1-t", 16, "d2", 16),
            Map.of("d1", 10L, "d1-t", 10L, "d2", 6L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void shares(Row row) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(node("g" + i).cpu("64").memory("256Gi").gpu(4).build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    row.demand()
        .forEach(
            (queue, gpus) ->
                jobs.add(
                    job(queue + "-job")
                        .queue(queue)
                        .minWorkers(gpus - 1)
                        .leader("cpu", "1", Resource.GPU, "1")
                        .workers("actor", gpus - 1, "cpu", "1", Resource.GPU, "1")
                        .build()));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, jobs, row.queues()), Fixtures.defaultConfiguration(), T0);

    Map<String, Long> deserved = new LinkedHashMap<>();
    for (QueueSummary summary : result.queues().values()) {
      if (row.deserved().containsKey(summary.name())) {
        deserved.put(summary.name(), wholeGpus(summary.deserved().get(Resource.GPU)));
      }
    }
    assertThat(deserved).containsExactlyInAnyOrderEntriesOf(row.deserved());
  }
}
