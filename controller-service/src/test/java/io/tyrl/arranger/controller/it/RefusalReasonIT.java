package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.KubectlTable;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A job the controller's validation refuses shows why where a user looks: the REASON column of
 * {@code kubectl get tyj -o wide} reads {@code InvalidJob} (status.scheduling.reason, written by
 * the service that refused it), and its status message, its Validated condition and its Event say
 * the same words. No scheduler runs here: the controller alone refused it.
 */
@ExtendWith(KubeApiServerExtension.class)
class RefusalReasonIT {

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "refusal");
    controller = cluster.startController("refusal-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void aJobRefusedByValidationShowsItsReasonWithTheSameWordsEverywhere() throws Exception {
    // The CRD cannot see that two WorkerSets share a name; the controller's validation does.
    cluster.createJob(TYJobBody.named("twins").workerSet("actor", 1).workerSet("actor", 2));

    cluster.awaitStage("twins", "Failed");
    JsonObject scheduling = cluster.status("twins").getAsJsonObject("scheduling");
    String message = cluster.condition("twins", "Validated").get("message").getAsString();
    assertThat(message).contains("spec.workerSets[1].name", "duplicate name \"actor\"");
    assertThat(scheduling.get("reason").getAsString()).isEqualTo("InvalidJob");
    assertThat(scheduling.get("message").getAsString()).isEqualTo(message);
    assertThat(cluster.condition("twins", "Finished").get("reason").getAsString())
        .isEqualTo("InvalidJob");

    KubectlTable table =
        KubectlTable.get(
            cluster.admin,
            "/apis/arranger.tyrl.io/v1alpha1/namespaces/" + cluster.namespace + "/tyjobs/twins");
    assertThat(table.cell("Reason")).as("kubectl get tyj -o wide").isEqualTo("InvalidJob");
    assertThat(table.cell("Stage")).isEqualTo("Failed");

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(events("twins"))
                    .singleElement()
                    .satisfies(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getReason()).isEqualTo("InvalidJob");
                          assertThat(event.getMessage())
                              .as("the Event says what the status says")
                              .isEqualTo(message);
                          assertThat(event.getSource().getComponent())
                              .isEqualTo("arranger-controller");
                          assertThat(event.getCount()).isEqualTo(1);
                        }));
  }

  private static List<CoreV1Event> events(String job) throws Exception {
    return cluster
        .core
        .listNamespacedEvent(cluster.namespace)
        .fieldSelector("involvedObject.name=" + job)
        .execute()
        .getItems();
  }
}
