package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Work arrives one job at a time on a real cluster: the first queue's elastic job finds the cluster
 * idle and takes every GPU before the second queue has any job. Both services from their jars, the
 * scheduler in its default configuration: once the second queue's job arrives, its queue gets its
 * weighted share back from the first job's surplus actors within 10 of the scheduler's periods, and
 * keeps it for 20 cycles.
 *
 * <p>The bound is in periods, not in cycles counted: each victim's pod starts a cycle when it
 * begins terminating and another when it is gone, so how many cycles pass while victims leave
 * depends on how the kubelet spaces their ends (one run took 5 cycles, another more than 11).
 * {@code ArrivalOverTimeTest} holds the core to 10 periodic cycles.
 */
class LateSecondQueueEndToEndIT {

  private static final String GPU = NodeSpec.GPU;
  private static final int PERIODS_TO_SHARE = 10;
  private static final int CYCLES_STABLE = 20;

  @Test
  void aSecondQueueArrivingLateGetsItsWeightedShareFromTheFirstJobsSurplusWithinTenPeriods()
      throws Exception {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(NodeSpec.named("gpu-node-" + i).cpu("32").memory("128Gi").gpus(4).build());
    }
    try (TenancyCluster cluster = TenancyCluster.start("late-queue", nodes);
        ClusterInvariants invariants =
            new ClusterInvariants(cluster.admin(), TenancyCluster.JOBS_NAMESPACE).start()) {
      cluster.queue("a", 3);
      cluster.queue("b", 1);

      TenancyCluster.gpuJob("a-job", "a", 16, 2).create(cluster.admin());
      await("a-job holds all 16 GPUs with its pods running")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(List.of(placed(cluster, "a-job"), running(cluster, "a-job")))
                      .as(() -> "placed and running;\n" + cluster.jobsSummary())
                      .isEqualTo(List.of(16, 16)));
      String learnerUid = learnerUid(cluster, "a-job");

      long arrival = cluster.cycles();
      TenancyCluster.gpuJob("b-job", "b", 16, 2).create(cluster.admin());

      long sharedAt =
          cluster.awaitPlacedByQueue(Map.of("a", 12, "b", 4), PERIODS_TO_SHARE, arrival);

      await("the split holds for " + CYCLES_STABLE + " more cycles")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                assertThat(cluster.placedPodsByQueue())
                    .as("GPUs placed per queue after the split was reached")
                    .isEqualTo(Map.of("a", 12, "b", 4));
                return cluster.cycles() >= sharedAt + CYCLES_STABLE;
              });

      await("the pods follow the allocations and the Queue statuses agree")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(running(cluster, "a-job")).isEqualTo(12);
                assertThat(running(cluster, "b-job")).isEqualTo(4);
                assertThat(cluster.queueAllocated("a", GPU)).isEqualByComparingTo("12");
                assertThat(cluster.queueAllocated("b", GPU)).isEqualByComparingTo("4");
              });

      Map<String, String> deleted = cluster.deletedPods();
      assertThat(deleted.keySet())
          .as("pods deleted: exactly 4 of a-job's surplus actors, taken back once")
          .hasSize(4)
          .allMatch(name -> name.startsWith("a-job-actor-"));
      assertThat(learnerUid(cluster, "a-job"))
          .as("a-job's learner never restarted")
          .isEqualTo(learnerUid);
      V1alpha1TYJob aJob = cluster.job("a-job");
      assertThat(aJob.getStatus().getStage().getValue()).isEqualTo("Running");
      assertThat(aJob.getStatus().getLeader().getRestarts()).isZero();
      assertThat(invariants.violations()).isEmpty();
    }
  }

  private static int placed(TenancyCluster cluster, String name) throws Exception {
    V1alpha1TYJob job = cluster.job(name);
    return job.getStatus() == null || job.getStatus().getAllocations() == null
        ? 0
        : job.getStatus().getAllocations().size();
  }

  private static int running(TenancyCluster cluster, String name) throws Exception {
    return (int)
        cluster.livePodsByJob().getOrDefault(name, List.of()).stream()
            .filter(pod -> "Running".equals(pod.getStatus().getPhase()))
            .count();
  }

  private static String learnerUid(TenancyCluster cluster, String name) throws Exception {
    return cluster.livePodsByJob().getOrDefault(name, List.of()).stream()
        .filter(pod -> pod.getMetadata().getName().equals(name + "-learner"))
        .map(V1Pod::getMetadata)
        .map(metadata -> metadata.getUid())
        .findFirst()
        .orElse("(no live learner)");
  }
}
