package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.kube.QueueUsageKeeper;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.KubectlTable;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A queue's past usage survives a scheduler failover on the real API server: the leader writes it
 * to the Queue's status (and only the leader: the standby writes nothing), and the standby's first
 * cycles as leader go on from what was stored rather than from nothing.
 */
@ExtendWith(KubeApiServerExtension.class)
class QueueUsageFailoverIT {

  private static final Map<String, String> FAST_USAGE_WRITES =
      Map.of("arranger.scheduler.usage-write-interval", "1s");

  @Test
  void theStandbyGoesOnFromTheUsageTheLeaderStored(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("usage");
    String namespace = ClusterFixtures.namespace(client, "usage");
    String queue = test;
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("8")
            .memory("32Gi")
            .label("arranger-test", test)
            .build());
    new CustomObjectsApi(client)
        .createClusterCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.QUEUES,
            Map.of(
                "apiVersion",
                ArrangerResources.API_VERSION,
                "kind",
                ArrangerResources.QUEUE_KIND,
                "metadata",
                Map.of("name", queue)))
        .execute();
    TYJobBuilder.named("sweep")
        .namespace(namespace)
        .leader("learner", "2", "1Gi")
        .workers("actor", 2, "2", "1Gi")
        .nodeSelector("arranger-test", test)
        .set("queue", queue)
        .create(client);
    String lease = "lease-" + test;
    try (SchedulerInstance first =
            SchedulerInstance.start(
                controlPlane, "replica-a", lease, "config-" + test, FAST_USAGE_WRITES);
        SchedulerInstance second =
            SchedulerInstance.start(
                controlPlane, "replica-b", lease, "config-" + test, FAST_USAGE_WRITES)) {
      await().atMost(Duration.ofSeconds(20)).until(() -> first.isLeader() || second.isLeader());
      SchedulerInstance leader = first.isLeader() ? first : second;
      SchedulerInstance standby = leader == first ? second : first;

      // The leader writes the usage of the queue's 6 cpu as they run; a few writes in, the stored
      // usage is several seconds' worth.
      await()
          .atMost(Duration.ofSeconds(40))
          .ignoreExceptions()
          .until(() -> storedCpuSeconds(client, queue) > 30);
      assertThat(standby.bean(QueueUsageKeeper.class).writeResults())
          .as("the standby writes no usage")
          .isEmpty();
      assertThat(standby.bean(QueueUsageKeeper.class).usages()).isEmpty();
      KubectlTable table =
          KubectlTable.get(client, "/apis/arranger.tyrl.io/v1alpha1/queues/" + queue);
      assertThat(table.cell("Usage")).startsWith("cpu ").endsWith("%");

      leader.close();
      double stored = storedCpuSeconds(client, queue);
      await().atMost(Duration.ofSeconds(10)).until(standby::isLeader);
      // The first cycle that knows the queue already has its stored history: a standby that
      // started from nothing would have a few seconds' worth.
      AtomicReference<QueueUsage> firstSeen = new AtomicReference<>();
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(10))
          .until(
              () -> {
                firstSeen.set(standby.bean(QueueUsageKeeper.class).usages().get(queue));
                return firstSeen.get() != null;
              });
      assertThat(firstSeen.get().queue().total("cpu"))
          .as("the new leader's usage on its first cycles, against %s stored", stored)
          .isGreaterThanOrEqualTo(stored * 0.99);
      // And it goes on writing from there.
      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(() -> storedCpuSeconds(client, queue) > stored + 6);
      assertThat(standby.bean(QueueUsageKeeper.class).writeResults()).containsKey("written");
    }
  }

  private static double storedCpuSeconds(ApiClient client, String queue) throws Exception {
    Object raw =
        new CustomObjectsApi(client)
            .getClusterCustomObject(
                ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, queue)
            .execute();
    JsonObject object = client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
    return object
        .getAsJsonObject("status")
        .getAsJsonObject(QueueStatusFields.USAGE)
        .getAsJsonObject(QueueStatusFields.USAGE_RESOURCE_SECONDS)
        .get("cpu")
        .getAsDouble();
  }
}
