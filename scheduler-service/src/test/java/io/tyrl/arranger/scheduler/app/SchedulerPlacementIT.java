package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedKubelet;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SchedulerPlacementIT {

  private static final int NODES = 12;
  private static final BigDecimal NODE_CPU = new BigDecimal("4");
  private static final BigDecimal NODE_MEMORY_GI = new BigDecimal("16");

  @Test
  void thirtyJobsOnTwelveNodesNeverExceedAnyNodeCountingForeignPods(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes, SimulatedKubelet kubelet)
      throws Exception {
    String test = ClusterFixtures.unique("place");
    String namespace = ClusterFixtures.namespace(client, "place");
    Map<String, BigDecimal[]> usedByNode = new HashMap<>();
    for (int i = 0; i < NODES; i++) {
      String node = test + "-node-" + i;
      nodes.register(
          NodeSpec.named(node).cpu("4").memory("16Gi").label("arranger-test", test).build());
      usedByNode.put(node, new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
      if (i % 2 == 0) {
        V1Pod foreign = ClusterFixtures.foreignPod(client, namespace, node, "2", "4Gi");
        kubelet.run(namespace, foreign.getMetadata().getName());
        add(usedByNode.get(node), "2", "4");
      }
    }
    Map<String, int[]> jobShapes = new HashMap<>();
    for (int j = 0; j < 30; j++) {
      int workers = 1 + j % 4;
      String cpu = j % 3 == 0 ? "1" : "500m";
      TYJobBuilder.named("job-" + j)
          .namespace(namespace)
          .leader("learner", cpu, "1Gi")
          .workers("actor", workers, cpu, "1Gi")
          .nodeSelector("arranger-test", test)
          .set("priority", 1 + j % 10)
          .create(client);
      jobShapes.put("job-" + j, new int[] {workers, j % 3 == 0 ? 1000 : 500});
    }

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () ->
                  ClusterFixtures.jobs(client, namespace).stream()
                      .allMatch(SchedulerPlacementIT::decided));
      // A few more cycles: nothing may change the picture for the worse.
      Thread.sleep(1500);
      List<V1alpha1TYJob> jobs = ClusterFixtures.jobs(client, namespace);

      for (V1alpha1TYJob job : jobs) {
        int[] shape = jobShapes.get(job.getMetadata().getName());
        Map<String, String> allocations =
            job.getStatus().getAllocations() == null ? Map.of() : job.getStatus().getAllocations();
        BigDecimal cpu = BigDecimal.valueOf(shape[1]).movePointLeft(3);
        allocations.forEach(
            (pod, node) -> {
              assertThat(usedByNode)
                  .as("allocation of %s names a node of this test", pod)
                  .containsKey(node);
              add(usedByNode.get(node), cpu.toPlainString(), "1");
            });
        if (!allocations.isEmpty()) {
          assertThat(allocations)
              .as("gang minimum of %s: leader and at least one worker", job.getMetadata().getName())
              .containsKey(job.getMetadata().getName() + "-learner")
              .hasSizeGreaterThanOrEqualTo(2);
        } else {
          assertThat(job.getStatus().getScheduling().getReason())
              .as("pending reason of %s", job.getMetadata().getName())
              .isNotBlank();
          assertThat(job.getStatus().getScheduling().getMessage()).isNotBlank();
        }
      }
      usedByNode.forEach(
          (node, used) -> {
            assertThat(used[0]).as("cpu on %s", node).isLessThanOrEqualTo(NODE_CPU);
            assertThat(used[1]).as("memory (Gi) on %s", node).isLessThanOrEqualTo(NODE_MEMORY_GI);
          });
      long placed =
          jobs.stream()
              .filter(
                  j ->
                      j.getStatus().getAllocations() != null
                          && !j.getStatus().getAllocations().isEmpty())
              .count();
      assertThat(placed).as("jobs placed").isGreaterThanOrEqualTo(10).isLessThan(30);

      assertThat(scheduler.get("/actuator/health/liveness")).startsWith("200").contains("\"UP\"");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> scheduler.get("/actuator/health/readiness").startsWith("200"));
      String metrics = scheduler.get("/actuator/prometheus");
      assertThat(metrics)
          .contains(
              "arranger_scheduler_e2e_scheduling_duration_seconds",
              "arranger_scheduler_action_scheduling_duration_seconds_count{action=\"allocate\"",
              "arranger_scheduler_schedule_attempts_total{result=\"scheduled\"",
              "arranger_scheduler_pending_jobs{queue=\"default\"",
              "arranger_leader{service=\"arranger-scheduler\"} 1.0");
    }
  }

  private static boolean decided(V1alpha1TYJob job) {
    return job.getStatus() != null && job.getStatus().getScheduleState() != null;
  }

  private static void add(BigDecimal[] used, String cpu, String memoryGi) {
    used[0] = used[0].add(new BigDecimal(cpu));
    used[1] = used[1].add(new BigDecimal(memoryGi));
  }
}
