package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SchedulerConfigMapIT {

  private static final String CONFIGURATION =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: predicates
            - name: proportion
            - name: nodeorder
              arguments:
                defaultPolicy: %s
      """;

  @Test
  void aChangedDefaultPolicyAppliesWithoutRestartAndAnInvalidOneIsRefused(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("config");
    String namespace = ClusterFixtures.namespace(client, "config");
    for (int i = 0; i < 4; i++) {
      nodes.register(
          NodeSpec.named(test + "-node-" + i)
              .cpu("16")
              .memory("64Gi")
              .label("arranger-test", test)
              .build());
    }
    String configMap = "config-" + test;
    CoreV1Api core = new CoreV1Api(client);
    core.createNamespacedConfigMap(
            "default",
            new V1ConfigMap()
                .metadata(new V1ObjectMeta().name(configMap))
                .data(Map.of("scheduler.yaml", CONFIGURATION.formatted("BinPack"))))
        .execute();

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, configMap, Map.of())) {
      job(client, namespace, test, "packed");
      assertThat(nodesUsed(client, namespace, "packed"))
          .as("BinPack puts the 4 pods on one node")
          .isEqualTo(1);

      core.replaceNamespacedConfigMap(
              configMap,
              "default",
              new V1ConfigMap()
                  .metadata(new V1ObjectMeta().name(configMap))
                  .data(Map.of("scheduler.yaml", CONFIGURATION.formatted("JobAntiAffinity"))))
          .execute();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> scheduler.get("/actuator/schedulerconfiguration").contains("resourceVersion"));
      job(client, namespace, test, "spread");
      assertThat(nodesUsed(client, namespace, "spread"))
          .as("JobAntiAffinity spreads the 4 pods")
          .isEqualTo(4);

      core.replaceNamespacedConfigMap(
              configMap,
              "default",
              new V1ConfigMap()
                  .metadata(new V1ObjectMeta().name(configMap))
                  .data(
                      Map.of(
                          "scheduler.yaml",
                          CONFIGURATION
                              .formatted("JobAntiAffinity")
                              .replace("name: gang", "name: gangg"))))
          .execute();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> scheduler.get("/actuator/schedulerconfiguration").contains("refused"));
      String health = scheduler.get("/actuator/schedulerconfiguration");
      assertThat(health).contains("gangg");
      job(client, namespace, test, "still-spread");
      assertThat(nodesUsed(client, namespace, "still-spread"))
          .as("the last good configuration stays")
          .isEqualTo(4);
    }
  }

  private static void job(ApiClient client, String namespace, String test, String name) {
    TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", "1", "1Gi")
        .workers("actor", 3, "1", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);
  }

  private static int nodesUsed(ApiClient client, String namespace, String name) throws Exception {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> allocations(client, namespace, name).size() == 4);
    return new HashSet<>(allocations(client, namespace, name).values()).size();
  }

  private static Map<String, String> allocations(ApiClient client, String namespace, String name)
      throws Exception {
    V1alpha1TYJob job =
        ClusterFixtures.jobs(client, namespace).stream()
            .filter(j -> j.getMetadata().getName().equals(name))
            .findFirst()
            .orElseThrow();
    return job.getStatus() == null || job.getStatus().getAllocations() == null
        ? Map.of()
        : job.getStatus().getAllocations();
  }
}
