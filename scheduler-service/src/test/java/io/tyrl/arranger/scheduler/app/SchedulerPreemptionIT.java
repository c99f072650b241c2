package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SchedulerPreemptionIT {

  @Test
  void aHighPriorityGangTakesTheElasticWorkersOfALowPriorityJobAndNothingMore(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("preempt");
    String namespace = ClusterFixtures.namespace(client, "preempt");
    for (int i = 0; i < 2; i++) {
      nodes.register(
          NodeSpec.named(test + "-node-" + i)
              .cpu("4")
              .memory("16Gi")
              .label("arranger-test", test)
              .build());
    }
    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane,
            "scheduler-" + test,
            "lease-" + test,
            "config-" + test,
            Map.of(
                "arranger.scheduler.configuration",
                DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML))) {
      TYJobBuilder.named("low")
          .namespace(namespace)
          .leader("learner", "1", "1Gi")
          .workers("actor", 7, "1", "1Gi")
          .nodeSelector("arranger-test", test)
          .set("priority", 2)
          .set("minWorkersNum", 3)
          .create(client);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> allocations(client, namespace, "low").size() == 8);

      TYJobBuilder.named("high")
          .namespace(namespace)
          .leader("learner", "1", "1Gi")
          .workers("actor", 3, "1", "1Gi")
          .nodeSelector("arranger-test", test)
          .set("priority", 9)
          .set("minWorkersNum", 3)
          .create(client);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> allocations(client, namespace, "high").size() == 4);

      Map<String, String> low = allocations(client, namespace, "low");
      assertThat(low)
          .as("the low job keeps its leader and its minimum of 3 workers")
          .hasSize(4)
          .containsKey("low-learner");
      Map<String, Integer> cpusByNode = new HashMap<>();
      low.values().forEach(node -> cpusByNode.merge(node, 1, Integer::sum));
      allocations(client, namespace, "high")
          .values()
          .forEach(node -> cpusByNode.merge(node, 1, Integer::sum));
      assertThat(cpusByNode.values()).allSatisfy(cpus -> assertThat(cpus).isLessThanOrEqualTo(4));
      assertThat(scheduler.counter("arranger.scheduler.preemption.victims", "scope", "workers"))
          .isEqualTo(4);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  hasEvent(client, namespace, "high", "Preempting")
                      && hasEvent(client, namespace, "low", "Preempted"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> job(client, namespace, "high").getStatus().getVictims() == null);
    }
  }

  private static boolean hasEvent(ApiClient client, String namespace, String job, String reason)
      throws Exception {
    return new CoreV1Api(client)
        .listNamespacedEvent(namespace).execute().getItems().stream()
            .filter(event -> job.equals(event.getInvolvedObject().getName()))
            .map(CoreV1Event::getReason)
            .anyMatch(reason::equals);
  }

  private static V1alpha1TYJob job(ApiClient client, String namespace, String name)
      throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(j -> j.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static Map<String, String> allocations(ApiClient client, String namespace, String name)
      throws Exception {
    V1alpha1TYJob job = job(client, namespace, name);
    return job.getStatus() == null || job.getStatus().getAllocations() == null
        ? Map.of()
        : job.getStatus().getAllocations();
  }
}
