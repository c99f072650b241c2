package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * On a cluster of up to {@value NodeSearch#EXACT_SEARCH_MAX_NODES} nodes every feasible node is
 * scored, so BinPack and LeaderFirst find their best node wherever it is; sampling starts above.
 * 300 nodes: kube-scheduler's adaptive rule would look at 144 of them.
 */
class ExactNodeSearchTest {

  private static List<NodeInfo> nodes(IntFunction<String> usedCpu) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      nodes.add(node("node-" + i).cpu("8").memory("64Gi").used("cpu", usedCpu.apply(i)).build());
    }
    return nodes;
  }

  private static String placedOn(List<NodeInfo> nodes, JobInfo job) {
    return Fixtures.scheduler()
        .runCycle(new Snapshot(nodes, List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
        .decision(job.key())
        .allocations()
        .get(job.leader().podName());
  }

  @Test
  void binPackFindsTheFullestNodeOnASmallCluster() {
    JobInfo job =
        job("pack")
            .basicPolicy(new BasicPolicy("BinPack"))
            .minWorkers(0)
            .leader("cpu", "1")
            .build();

    assertThat(placedOn(nodes(i -> i == 250 ? "6" : "0"), job)).isEqualTo("node-250");
  }

  @Test
  void leaderFirstPutsTheLeaderOnTheQuietestNodeOnASmallCluster() {
    JobInfo job =
        job("lead").basicPolicy(BasicPolicy.LEADER_FIRST).minWorkers(0).leader("cpu", "1").build();

    assertThat(placedOn(nodes(i -> i == 280 ? "0" : "5"), job)).isEqualTo("node-280");
  }

  @Test
  void searchIsExactUpToTheDocumentedClusterSizeAndSamplesAbove() {
    assertThat(NodeSearch.EXACT_SEARCH_MAX_NODES).isEqualTo(1000);
    assertThat(NodeSearch.wantedFeasibleNodes(1000, 1000, 0, 100)).isEqualTo(1000);
    assertThat(NodeSearch.wantedFeasibleNodes(1001, 1001, 0, 100)).isEqualTo(1001 * 42 / 100);
    assertThat(NodeSearch.wantedFeasibleNodes(5000, 5000, 0, 100)).isEqualTo(5000 * 10 / 100);
    assertThat(NodeSearch.wantedFeasibleNodes(20000, 20000, 0, 100))
        .isEqualTo(NodeSearch.ADAPTIVE_MAX_FEASIBLE_NODES);
    // An operator who asks for sampling gets it on any cluster; 100% is exact on any cluster.
    assertThat(NodeSearch.wantedFeasibleNodes(300, 300, 10, 100)).isEqualTo(100);
    assertThat(NodeSearch.wantedFeasibleNodes(20000, 20000, 100, 100)).isEqualTo(20000);
  }
}
