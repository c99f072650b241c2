package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A leader refused by the kubelet after binding (OutOfcpu): the controller gives it back without
 * counting a restart and writes the node into {@code status.avoidNodes} until the configured time,
 * in the same patch, so the scheduler's next placement of the job keeps off it
 * (SchedulerAvoidedNodeIT).
 */
@ExtendWith(KubeApiServerExtension.class)
class KubeletRefusalIT {

  private static final Duration AVOIDANCE = Duration.ofMinutes(3);

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "refused");
    controller =
        cluster.startController(
            "refused-it", Map.of("arranger.controller.refusing-node-avoidance", "3m"));
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void aLeaderRefusedWithOutOfcpuMakesItsNodeAvoidedForTheJobWithoutARestart() throws Exception {
    String job = "refused";
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 1).spec("restartLimit", 0));
    cluster.scheduleAll(job, "actor", 1);
    cluster.awaitPod(job + "-learner");
    Instant refusedAt = Instant.now();
    cluster.reject(job + "-learner", "OutOfcpu");

    cluster.awaitStage(job, "Rescheduling");
    JsonObject status = cluster.status(job);
    JsonArray avoided = status.getAsJsonArray("avoidNodes");
    assertThat(avoided).hasSize(1);
    JsonObject entry = avoided.get(0).getAsJsonObject();
    assertThat(entry.get("node").getAsString()).isEqualTo(cluster.nodeA);
    assertThat(entry.get("reason").getAsString()).isEqualTo("OutOfcpu");
    assertThat(Instant.parse(entry.get("until").getAsString()))
        .isBetween(
            refusedAt.plus(AVOIDANCE).minusSeconds(2),
            Instant.now().plus(AVOIDANCE).plusSeconds(1));
    assertThat(
            status.getAsJsonObject("allocations") == null
                || !status.getAsJsonObject("allocations").has(job + "-learner"))
        .as("the placement is given back in the same write")
        .isTrue();
    assertThat(status.getAsJsonObject("leader").get("restarts").getAsInt())
        .as("not counted")
        .isZero();
    JsonObject running = cluster.condition(job, "Running");
    assertThat(running.get("reason").getAsString()).isEqualTo("LeaderRejected");
    assertThat(running.get("message").getAsString())
        .contains(
            "node "
                + cluster.nodeA
                + " is avoided for this job until "
                + entry.get("until").getAsString());
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(cluster.eventReasons(job)).contains("LeaderRejected"));
  }
}
