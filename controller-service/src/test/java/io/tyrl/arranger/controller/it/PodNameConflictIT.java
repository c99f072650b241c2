package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A pod of another owner under the name of a job's leader, on a real API server with the controller
 * in-process: it is not adopted, the job reports the conflict and waits, and once the pod is gone
 * the job's own leader is created.
 */
@ExtendWith(KubeApiServerExtension.class)
class PodNameConflictIT {

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "conflict");
    controller = cluster.startController("conflict-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void aForeignPodUnderTheLeadersNameIsNotAdoptedAndTheJobGoesOnOnceItIsGone() throws Exception {
    String job = "taken";
    V1Pod foreign =
        cluster
            .core
            .createNamespacedPod(
                cluster.namespace,
                new V1Pod()
                    .metadata(new V1ObjectMeta().name(job + "-learner"))
                    // client-java starts overhead as an empty map, which the 1.20 API server
                    // refuses.
                    .spec(
                        new V1PodSpec()
                            .containers(List.of(new V1Container().name("web").image("nginx")))
                            .overhead(null)))
            .execute();
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 1));
    cluster.scheduleAll(job, "actor", 1);

    await("the conflict is reported")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              JsonObject conflict = cluster.condition(job, "PodNameConflict");
              assertThat(conflict.get("status").getAsString()).isEqualTo("True");
              assertThat(conflict.get("message").getAsString())
                  .startsWith(
                      "pod \""
                          + job
                          + "-learner\" exists and is not this job's (no owner); it is not adopted");
            });
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(cluster.eventReasons(job)).contains("PodNameConflict"));
    assertThat(cluster.stage(job))
        .as("no leader is announced that the job cannot have")
        .isEqualTo("Pending");
    V1Pod stillForeign = cluster.pod(job + "-learner").orElseThrow();
    assertThat(stillForeign.getMetadata().getUid()).isEqualTo(foreign.getMetadata().getUid());
    assertThat(stillForeign.getMetadata().getOwnerReferences()).as("not adopted").isNullOrEmpty();
    assertThat(cluster.pods(job)).as("no pod of the job's own yet").isEmpty();

    cluster
        .core
        .deleteNamespacedPod(job + "-learner", cluster.namespace)
        .gracePeriodSeconds(0)
        .execute();

    // The foreign pod carries no label of the job, so nothing but the job's own retries notices it
    // is gone.
    V1Pod leader =
        await("the job's own leader")
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(200))
            .until(
                () ->
                    cluster
                        .pod(job + "-learner")
                        .filter(pod -> pod.getMetadata().getOwnerReferences() != null),
                pod -> pod.isPresent())
            .orElseThrow();
    String jobUid = cluster.job(job).getAsJsonObject("metadata").get("uid").getAsString();
    assertThat(leader.getMetadata().getOwnerReferences())
        .extracting(V1OwnerReference::getUid)
        .containsExactly(jobUid);
    cluster.awaitStage(job, "Starting");
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(cluster.condition(job, "PodNameConflict").get("status").getAsString())
                    .isEqualTo("False"));
  }
}
