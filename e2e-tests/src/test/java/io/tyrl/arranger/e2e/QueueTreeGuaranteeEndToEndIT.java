package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.testing.NodeSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A two-level queue tree through both services, the scheduler in its default configuration: {@code
 * research} with children {@code team-a} and {@code team-b}, each guaranteed 8 of the cluster's 16
 * GPUs. Team A finds the cluster idle and fills it with elastic surplus; team B's jobs then arrive
 * and reach B's guarantee within 10 of the scheduler's periods, by evicting A's surplus actors
 * only: A's learners and gang minimums stay, each learner pod with its UID.
 */
class QueueTreeGuaranteeEndToEndIT {

  private static final String GPU = NodeSpec.GPU;
  private static final List<String> A_JOBS = List.of("a-1", "a-2");
  private static final List<String> B_JOBS = List.of("b-1", "b-2");
  private static final int PERIODS_TO_GUARANTEE = 10;
  private static final int CYCLES_STABLE = 20;

  @Test
  void teamBReachesItsGuaranteeWithinTenPeriodsFromTeamASurplusWhileTeamALearnersRunOn()
      throws Exception {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(NodeSpec.named("gpu-node-" + i).cpu("32").memory("128Gi").gpus(4).build());
    }
    try (TenancyCluster cluster = TenancyCluster.start("queue-tree", nodes);
        ClusterInvariants invariants =
            new ClusterInvariants(cluster.admin(), TenancyCluster.JOBS_NAMESPACE).start()) {
      cluster.queue("research", Map.of("weight", 1, "guarantee", Map.of(GPU, "16")));
      cluster.queue(
          "team-a", Map.of("parent", "research", "weight", 1, "guarantee", Map.of(GPU, "8")));
      cluster.queue(
          "team-b", Map.of("parent", "research", "weight", 1, "guarantee", Map.of(GPU, "8")));

      // Two jobs of up to 8 GPUs each fill the cluster; each one's minimum (learner + 2 actors)
      // is within A's guarantee, the other 5 GPUs of each are surplus.
      for (String name : A_JOBS) {
        TenancyCluster.gpuJob(name, "team-a", 7, 2).create(cluster.admin());
      }
      await("team A holds all 16 GPUs with its pods running")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(List.of(cluster.placedPodsByQueue(), runningPods(cluster, "a-")))
                      .as(() -> "placed per queue and A's running pods;\n" + cluster.jobsSummary())
                      .isEqualTo(List.of(Map.of("team-a", 16), 16)));
      assertThat(cluster.livePodsByJob())
          .containsOnlyKeys(A_JOBS)
          .allSatisfy((job, pods) -> assertThat(pods).hasSize(8));
      Map<String, String> learnerUids = new HashMap<>();
      for (String name : A_JOBS) {
        learnerUids.put(name, learnerUid(cluster, name));
      }

      long arrival = cluster.cycles();
      // B's two rigid jobs of 4 GPUs each ask exactly B's guarantee.
      for (String name : B_JOBS) {
        TenancyCluster.gpuJob(name, "team-b", 3, 3).create(cluster.admin());
      }

      long guaranteedAt =
          cluster.awaitPlacedByQueue(
              Map.of("team-a", 8, "team-b", 8), PERIODS_TO_GUARANTEE, arrival);

      await("the split holds for " + CYCLES_STABLE + " more cycles")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                assertThat(cluster.placedPodsByQueue())
                    .as("GPUs placed per queue after team B reached its guarantee")
                    .isEqualTo(Map.of("team-a", 8, "team-b", 8));
                return cluster.cycles() >= guaranteedAt + CYCLES_STABLE;
              });
      await("the pods follow the allocations and the Queue statuses agree")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(runningPods(cluster, "a-")).isEqualTo(8);
                assertThat(runningPods(cluster, "b-")).isEqualTo(8);
                assertThat(cluster.queueAllocated("team-a", GPU)).isEqualByComparingTo("8");
                assertThat(cluster.queueAllocated("team-b", GPU)).isEqualByComparingTo("8");
                assertThat(cluster.queueAllocated("research", GPU)).isEqualByComparingTo("16");
              });

      assertThat(cluster.deletedPods().keySet())
          .as("pods deleted: 8 of team A's surplus actors, each taken once")
          .hasSize(8)
          .allMatch(name -> name.startsWith("a-1-actor-") || name.startsWith("a-2-actor-"));
      for (String name : A_JOBS) {
        assertThat(learnerUid(cluster, name))
            .as(name + "'s learner pod is the one it started with")
            .isEqualTo(learnerUids.get(name));
        assertThat(cluster.livePodsByJob().getOrDefault(name, List.of()))
            .as(name + " keeps at least its minimum")
            .hasSizeGreaterThanOrEqualTo(3);
      }
      assertThat(invariants.violations()).isEmpty();
    }
  }

  private static int runningPods(TenancyCluster cluster, String jobPrefix) throws Exception {
    int running = 0;
    for (Map.Entry<String, List<V1Pod>> job : cluster.livePodsByJob().entrySet()) {
      if (job.getKey().startsWith(jobPrefix)) {
        running +=
            (int)
                job.getValue().stream()
                    .filter(pod -> "Running".equals(pod.getStatus().getPhase()))
                    .count();
      }
    }
    return running;
  }

  private static String learnerUid(TenancyCluster cluster, String name) throws Exception {
    return cluster.livePodsByJob().getOrDefault(name, List.of()).stream()
        .filter(pod -> pod.getMetadata().getName().equals(name + "-learner"))
        .map(pod -> pod.getMetadata().getUid())
        .findFirst()
        .orElse("(no live learner)");
  }
}
