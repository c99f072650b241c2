package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.testing.KubectlTable;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first seconds of a job that cannot be placed, through both services in the default
 * configuration: kubectl shows it {@code Pending} on the first read after its creation, before
 * either service has written anything, and the scheduler's reason is in its status and in a Warning
 * Event within seconds — not after the controller's status batch period, which still holds back the
 * WORKERS report.
 */
class FirstSecondsEndToEndIT {

  private static final String JOB = "too-big";

  @Test
  void aJobThatCannotBePlacedShowsPendingAtOnceAndItsReasonWithinSeconds() throws Exception {
    List<NodeSpec> nodes =
        List.of(NodeSpec.named("gpu-node-0").cpu("32").memory("128Gi").gpus(4).build());
    try (TenancyCluster cluster = TenancyCluster.start("first-seconds", nodes)) {
      long created = System.nanoTime();
      TYJobBuilder.named(JOB)
          .namespace(TenancyCluster.JOBS_NAMESPACE)
          .leader("learner", "1", "1Gi")
          .workers("actor", 8, "1", "1Gi")
          .everyContainerRequests(NodeSpec.GPU, "1")
          .set("minWorkersNum", 8)
          .create(cluster.admin());

      KubectlTable first = table(cluster);
      assertThat(first.cell("Stage")).as("the first read after the create").isEqualTo("Pending");

      // The scheduler's period is 1 s: its next cycle finds the job within a second, and the
      // reason is to follow that cycle within another; the rest is slack for a loaded machine,
      // far below the 10 s status batch period that used to hide the job's first status.
      await("the scheduler's reason in status and as a Warning Event")
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> {
                String reason = table(cluster).cell("Reason");
                assertThat(reason).isNotEmpty();
                assertThat(warningReasons(cluster)).contains(reason);
              });
      Duration seen = Duration.ofNanos(System.nanoTime() - created);
      assertThat(table(cluster).cell("Stage")).isEqualTo("Pending");
      System.out.printf("first-seconds reason-and-event-ms=%d%n", seen.toMillis());
    }
  }

  private static KubectlTable table(TenancyCluster cluster) {
    return KubectlTable.get(
        cluster.admin(),
        "/apis/"
            + ArrangerResources.GROUP
            + "/"
            + ArrangerResources.VERSION
            + "/namespaces/"
            + TenancyCluster.JOBS_NAMESPACE
            + "/tyjobs/"
            + JOB);
  }

  private static List<String> warningReasons(TenancyCluster cluster) throws Exception {
    return new CoreV1Api(cluster.admin())
        .listNamespacedEvent(TenancyCluster.JOBS_NAMESPACE).execute().getItems().stream()
            .filter(event -> JOB.equals(event.getInvolvedObject().getName()))
            .filter(event -> "Warning".equals(event.getType()))
            .map(CoreV1Event::getReason)
            .toList();
  }
}
