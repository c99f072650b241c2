package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SchedulerFailoverIT {

  @Test
  void onlyTheLeaderWritesAndTheStandbyTakesOverWithoutPlacingAnyPodTwice(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("failover");
    String namespace = ClusterFixtures.namespace(client, "failover");
    for (int i = 0; i < 4; i++) {
      nodes.register(
          NodeSpec.named(test + "-node-" + i)
              .cpu("8")
              .memory("32Gi")
              .label("arranger-test", test)
              .build());
    }
    for (int j = 0; j < 4; j++) {
      job(client, namespace, test, "early-" + j);
    }
    String lease = "lease-" + test;
    try (SchedulerInstance first =
            SchedulerInstance.start(controlPlane, "replica-a", lease, "config-" + test, Map.of());
        SchedulerInstance second =
            SchedulerInstance.start(controlPlane, "replica-b", lease, "config-" + test, Map.of())) {
      await().atMost(Duration.ofSeconds(20)).until(() -> first.isLeader() || second.isLeader());
      SchedulerInstance leader = first.isLeader() ? first : second;
      SchedulerInstance standby = leader == first ? second : first;
      await().atMost(Duration.ofSeconds(30)).until(() -> placedJobs(client, namespace) == 4);
      Map<String, String> placedByLeader = allocations(client, namespace);

      assertThat(standby.isLeader()).isFalse();
      assertThat(leader.counter("arranger.scheduler.status.writes", "result", "written"))
          .isGreaterThanOrEqualTo(4);
      assertThat(standby.counter("arranger.scheduler.status.writes", "result", "written")).isZero();

      long stoppedAt = System.nanoTime();
      leader.close();
      await().atMost(Duration.ofSeconds(8)).until(standby::isLeader);
      Duration takeover = Duration.ofNanos(System.nanoTime() - stoppedAt);
      assertThat(takeover).isLessThanOrEqualTo(Duration.ofSeconds(5));
      assertThat(
              new CoordinationV1Api(client)
                  .readNamespacedLease(lease, "default")
                  .execute()
                  .getSpec()
                  .getHolderIdentity())
          .isEqualTo(standby == first ? "replica-a" : "replica-b");

      for (int j = 0; j < 4; j++) {
        job(client, namespace, test, "late-" + j);
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> placedJobs(client, namespace) == 8);
      Map<String, String> after = allocations(client, namespace);
      assertThat(after).containsAllEntriesOf(placedByLeader);
      assertThat(after).hasSize(8 * 3);
      assertThat(standby.counter("arranger.scheduler.status.writes", "result", "written"))
          .isGreaterThanOrEqualTo(4);
      Map<String, Integer> cpusByNode = new HashMap<>();
      after.values().forEach(node -> cpusByNode.merge(node, 1, Integer::sum));
      assertThat(cpusByNode.values()).allSatisfy(cpus -> assertThat(cpus).isLessThanOrEqualTo(8));
    }
  }

  private static void job(ApiClient client, String namespace, String test, String name) {
    TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", "1", "1Gi")
        .workers("actor", 2, "1", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);
  }

  private static long placedJobs(ApiClient client, String namespace) throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(
            j ->
                j.getStatus() != null
                    && j.getStatus().getAllocations() != null
                    && j.getStatus().getAllocations().size() == 3)
        .count();
  }

  private static Map<String, String> allocations(ApiClient client, String namespace)
      throws Exception {
    Map<String, String> all = new HashMap<>();
    List<V1alpha1TYJob> jobs = ClusterFixtures.jobs(client, namespace);
    for (V1alpha1TYJob job : jobs) {
      if (job.getStatus() != null && job.getStatus().getAllocations() != null) {
        job.getStatus()
            .getAllocations()
            .forEach(
                (pod, node) ->
                    assertThat(all.put(namespace + "/" + pod, node))
                        .as("pod %s allocated once", pod)
                        .isNull());
      }
    }
    return all;
  }
}
