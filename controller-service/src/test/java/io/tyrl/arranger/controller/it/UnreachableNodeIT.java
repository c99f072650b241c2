package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A job being rescheduled whose leader sits on a node that stopped reporting: nobody confirms the
 * leader's graceful delete, so without the controller it would hold the job forever. After the
 * grace — the leader's own tolerationSeconds for the node's taint, 2 s here (the API server's
 * admission gives every pod without one 300 s) — the controller force-deletes it, says so in a
 * Warning Event, and the job is placed again.
 */
@ExtendWith(KubeApiServerExtension.class)
class UnreachableNodeIT {

  private static final Duration GRACE = Duration.ofSeconds(2);

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "unreachable");
    controller = cluster.startController("unreachable-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void aLeaderStuckOnANodeThatIsNotReadyIsForceDeletedAfterTheGraceAndTheJobIsPlacedAgain()
      throws Exception {
    String job = "stranded";
    cluster.createJob(
        TYJobBody.named(job).workerSet("actor", 1).leaderToleratingNodeLossFor(GRACE.toSeconds()));
    cluster.scheduleAll(job, "actor", 1);
    String stuckUid = cluster.awaitPod(job + "-learner").getMetadata().getUid();
    cluster.run(job + "-learner");
    cluster.awaitPod(job + "-actor-0");
    cluster.run(job + "-actor-0");
    cluster.awaitStage(job, "Running");

    cluster.markNodeANotReady();
    Instant notReadyAt = Instant.now();
    // The leader is deleted (a drain, say); its kubelet on node A never confirms it.
    cluster.deletePod(job + "-learner");
    cluster.awaitStage(job, "Rescheduling");
    await("the worker's delete is requested")
        .atMost(TIMEOUT)
        .until(() -> ClusterHarness.isDeleted(cluster.pod(job + "-actor-0")));
    cluster.confirmDeletion(job + "-actor-0");

    await("the stuck leader is force-deleted")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> cluster.pod(job + "-learner").isEmpty());
    assertThat(Instant.now())
        .as("not before the grace")
        .isAfterOrEqualTo(notReadyAt.plus(GRACE).minusSeconds(1));
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(events(job))
                    .anySatisfy(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getReason()).isEqualTo("NodeUnreachable");
                          assertThat(event.getMessage())
                              .startsWith(
                                  "pod \""
                                      + job
                                      + "-learner\" force-deleted: node "
                                      + cluster.nodeA
                                      + " has not been Ready since");
                        }));

    // As the scheduler: the job is placed again, on the node that is still Ready.
    cluster.schedule(
        job,
        "ScheduledSucceed",
        Map.of(job + "-learner", cluster.nodeB, job + "-actor-0", cluster.nodeB));
    V1Pod recreated =
        await("the leader is created again")
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(100))
            .until(() -> cluster.pod(job + "-learner"), pod -> pod.isPresent())
            .orElseThrow();
    assertThat(recreated.getMetadata().getUid()).isNotEqualTo(stuckUid);
    assertThat(recreated.getSpec().getNodeName()).isEqualTo(cluster.nodeB);
    cluster.awaitStage(job, "Starting");
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
