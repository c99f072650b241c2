package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.KubectlTable;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Queues report status on the real API server: {@code kubectl get tyq} shows Pending, Inqueue and
 * Running filled, and the queue's place in the tree valid; the status follows a change within two
 * cycles; and a status that did not change is not written again (its resourceVersion stays, and no
 * write is counted).
 */
@ExtendWith(KubeApiServerExtension.class)
class QueueStatusIT {

  private static final Duration PERIOD = Duration.ofMillis(500);

  @Test
  void queueStatusIsWrittenOncePerChange(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("qstatus");
    String namespace = ClusterFixtures.namespace(client, "qstatus");
    String queue = test;
    // Two 4-cpu nodes for the jobs, and one they cannot use, so that the cluster holds more than
    // the
    // queue's capability and the queue deserves its whole capability.
    nodes.register(
        NodeSpec.named(test + "-a").cpu("4").memory("16Gi").label("arranger-test", test).build());
    nodes.register(
        NodeSpec.named(test + "-b").cpu("4").memory("16Gi").label("arranger-test", test).build());
    nodes.register(NodeSpec.named(test + "-spare").cpu("8").memory("16Gi").build());
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
                Map.of("name", queue),
                "spec",
                Map.of("weight", 1000, "capability", Map.of("cpu", "10"))))
        .execute();
    String idle = test + "-idle";
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
                Map.of("name", idle)))
        .execute();

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane,
            "scheduler-" + test,
            "lease-" + test,
            "config-" + test,
            Map.of("arranger.scheduler.period", PERIOD.toMillis() + "ms"))) {
      // Running: its minimum (3 + 3 cpu) placed.
      job("running", namespace, queue, test, "3", 5).create(client);
      await().atMost(Duration.ofSeconds(30)).until(() -> placed(client, namespace, "running"));
      // Inqueue: the queue can hold its minimum (6 + 4 <= 10), the nodes cannot (1 + 1 cpu left).
      job("inqueue", namespace, queue, test, "2", 9).create(client);
      // Pending: the queue cannot (6 + 4 + 2 > 10); judged after "inqueue", which has the higher
      // priority.
      job("pending", namespace, queue, test, "1", 1).create(client);

      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                JsonObject status = status(client, queue);
                assertThat(status.get("pending").getAsInt())
                    .as("pending in %s", status)
                    .isEqualTo(1);
                assertThat(status.get("inqueue").getAsInt()).as("inqueue").isEqualTo(1);
                assertThat(status.get("running").getAsInt()).as("running").isEqualTo(1);
              });
      JsonObject status = status(client, queue);
      assertThat(status.getAsJsonObject("allocated").get("cpu").getAsString()).isEqualTo("6");
      assertThat(status.getAsJsonObject("allocated").get("memory").getAsString()).isEqualTo("1Gi");
      assertThat(status.getAsJsonObject("deserved").get("cpu").getAsString()).isEqualTo("10");
      assertThat(status.get("overused").getAsBoolean()).isFalse();

      // A queue without jobs says so, rather than showing nothing.
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                KubectlTable idleRow =
                    KubectlTable.get(client, "/apis/arranger.tyrl.io/v1alpha1/queues/" + idle);
                assertThat(idleRow.cell("Pending")).isEqualTo("0");
                assertThat(idleRow.cell("Inqueue")).isEqualTo("0");
                assertThat(idleRow.cell("Running")).isEqualTo("0");
              });

      // What kubectl get tyq prints.
      KubectlTable table =
          KubectlTable.get(client, "/apis/arranger.tyrl.io/v1alpha1/queues/" + queue);
      assertThat(table.cell("Pending")).isEqualTo("1");
      assertThat(table.cell("Inqueue")).isEqualTo("1");
      assertThat(table.cell("Running")).isEqualTo("1");
      assertThat(table.cell("Overused")).isEqualTo("false");
      // A top-level queue, in a valid tree.
      assertThat(table.cell("Parent")).isEmpty();
      assertThat(table.cell("TreeValid")).isEqualTo("True");
      assertThat(table.wide())
          .contains("Overused", "Priority", "TreeValid")
          .doesNotContain("Pending", "Inqueue", "Running", "Parent");

      // Nothing changes: the status is not written again, however many cycles pass.
      String version = resourceVersion(client, queue);
      double writes =
          scheduler.counter("arranger.scheduler.queue.status.writes", "result", "written");
      long cycles = scheduler.cycles();
      await().atMost(Duration.ofSeconds(30)).until(() -> scheduler.cycles() >= cycles + 8);
      assertThat(resourceVersion(client, queue))
          .as("the Queue is not rewritten while nothing changed")
          .isEqualTo(version);
      assertThat(scheduler.counter("arranger.scheduler.queue.status.writes", "result", "written"))
          .isEqualTo(writes);

      // A change: the pending job goes. Its Queue says so within two cycles of the scheduler seeing
      // it.
      ArrangerResources.tyJobs(client).delete(namespace, "pending").throwsApiException();
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () ->
                  ClusterFixtures.jobs(client, namespace).stream()
                      .noneMatch(job -> job.getMetadata().getName().equals("pending")));
      long deletedAt = scheduler.cycles();
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> status(client, queue).get("pending").getAsInt() == 0);
      assertThat(scheduler.cycles() - deletedAt)
          .as("cycles from the change to the status showing it")
          .isLessThanOrEqualTo(2);
      assertThat(status(client, queue).get("inqueue").getAsInt()).isEqualTo(1);
      assertThat(
              KubectlTable.get(client, "/apis/arranger.tyrl.io/v1alpha1/queues/" + queue)
                  .cell("Pending"))
          .isEqualTo("0");
    }
  }

  private static TYJobBuilder job(
      String name, String namespace, String queue, String test, String cpu, int priority) {
    return TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", cpu, "512Mi")
        .workers("actor", 1, cpu, "512Mi")
        .nodeSelector("arranger-test", test)
        .set("queue", queue)
        .set("priority", priority);
  }

  private static boolean placed(ApiClient client, String namespace, String name) throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(job -> job.getMetadata().getName().equals(name))
        .anyMatch(
            job ->
                job.getStatus() != null
                    && job.getStatus().getAllocations() != null
                    && job.getStatus().getAllocations().size() == 2);
  }

  private static JsonObject queueObject(ApiClient client, String queue) throws Exception {
    Object raw =
        new CustomObjectsApi(client)
            .getClusterCustomObject(
                ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, queue)
            .execute();
    return client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
  }

  private static JsonObject status(ApiClient client, String queue) throws Exception {
    JsonObject object = queueObject(client, queue);
    return object.has("status") ? object.getAsJsonObject("status") : new JsonObject();
  }

  private static String resourceVersion(ApiClient client, String queue) throws Exception {
    return queueObject(client, queue)
        .getAsJsonObject("metadata")
        .get("resourceVersion")
        .getAsString();
  }
}
