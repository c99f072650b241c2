package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.KubectlTable;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What {@code kubectl get tyj} prints, as the API server renders the CRD's printer columns from a
 * real job's status: every column's JSONPath resolves to what the controller wrote.
 */
@ExtendWith(KubeApiServerExtension.class)
class KubectlColumnsIT {

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "columns");
    controller = cluster.startController("columns-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void getShowsStageQueueWorkersReadyOfDesiredAndWideAddsScheduleReasonAndNodes() throws Exception {
    String job = "cols";
    cluster.createJob(
        TYJobBody.named(job)
            .workerSet("actor", 2)
            .spec("minWorkersNum", 2)
            .spec("queue", "research"));
    cluster.scheduleAll(job, "actor", 2);
    cluster.awaitPod(job + "-learner");
    cluster.run(job + "-learner");
    cluster.awaitPod(job + "-actor-0");
    cluster.awaitPod(job + "-actor-1");

    await("Starting, no worker ready")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              KubectlTable starting = table(job);
              assertThat(starting.cell("Stage")).isEqualTo("Starting");
              assertThat(starting.cell("Workers")).isEqualTo("0/2");
              assertThat(starting.cell("Nodes"))
                  .as("leader on one node, workers on another")
                  .isEqualTo("2");
            });

    cluster.run(job + "-actor-0");
    cluster.run(job + "-actor-1");
    cluster.awaitStage(job, "Running");

    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(table(job).cell("Workers")).isEqualTo("2/2"));
    KubectlTable running = table(job);
    assertThat(running.cell("Stage")).isEqualTo("Running");
    assertThat(running.cell("Queue")).isEqualTo("research");
    assertThat(running.cell("Schedule")).isEqualTo("ScheduledSucceed");
    assertThat(running.cell("Reason")).as("nothing holds the job back").isEmpty();
    assertThat(running.cell("Age")).isNotEmpty();
    assertThat(running.wide())
        .as("only -o wide shows these")
        .containsExactly("Schedule", "Reason", "Nodes");
    assertThat(cluster.condition(job, "Running").get("lastTransitionTime").getAsString())
        .as("kubectl describe shows when each condition last changed")
        .isNotEmpty();
  }

  private static KubectlTable table(String job) {
    return KubectlTable.get(
        cluster.admin,
        "/apis/arranger.tyrl.io/v1alpha1/namespaces/" + cluster.namespace + "/tyjobs/" + job);
  }
}
