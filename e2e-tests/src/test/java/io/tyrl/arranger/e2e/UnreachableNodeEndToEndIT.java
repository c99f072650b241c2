package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedKubelet;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node that stops reporting while a job on it is being rescheduled, end to end with both services
 * from their jars: the job's pods there are never confirmed gone, so the controller force-deletes
 * them once the node has not been Ready for longer than their tolerationSeconds (2 s), and the
 * scheduler places the job on a node that is Ready, where it runs and succeeds.
 */
@ExtendWith(KubeApiServerExtension.class)
class UnreachableNodeEndToEndIT {

  private static final String JOBS_NAMESPACE = "unreachable-jobs";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  @Test
  void podsStuckOnANodeThatStoppedReportingAreForceDeletedAndTheJobIsPlacedAgain(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    E2eServices cluster =
        E2eServices.prepare(controlPlane, admin, nodes, "unreachable", JOBS_NAMESPACE, 0);
    // Not a simulated node: this test is its kubelet, until it stops reporting.
    NodeSpec lost =
        NodeSpec.named("unreachable-lost")
            .cpu("8")
            .memory("32Gi")
            .pods(110)
            .label(E2eServices.NODE_LABEL, "unreachable")
            .build();
    nodes.register(lost);
    SimulatedKubelet lostKubelet = new SimulatedKubelet(admin);
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(3));
        ReplicaSet scheduler =
            cluster.replicas("scheduler", LEASE_DURATION, RETRY_PERIOD, null).start(1);
        ReplicaSet controller =
            cluster.replicas("controller", LEASE_DURATION, RETRY_PERIOD, null).start(1)) {
      scheduler.awaitAllReady(Duration.ofMinutes(3));
      controller.awaitAllReady(Duration.ofMinutes(3));

      TYJobBuilder.named("stranded")
          .namespace(JOBS_NAMESPACE)
          .leader("learner", "2", "2Gi")
          .workers("actor", 1, "1", "1Gi")
          .set("minWorkersNum", 1)
          .tolerateNodeLossFor(2)
          .nodeSelector(E2eServices.NODE_LABEL, "unreachable")
          .create(admin);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> pod(admin, "stranded-learner").isPresent());
      lostKubelet.run(JOBS_NAMESPACE, "stranded-learner");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> pod(admin, "stranded-actor-0").isPresent());
      lostKubelet.run(JOBS_NAMESPACE, "stranded-actor-0");
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(() -> "Running".equals(stage(admin)));

      nodes.markNotReady(lost);
      nodes.register(
          NodeSpec.named("unreachable-good")
              .cpu("8")
              .memory("32Gi")
              .pods(110)
              .label(SimulatedNodeAgent.SIMULATED_LABEL, "true")
              .label(E2eServices.NODE_LABEL, "unreachable")
              .build());
      // A drain of the lost node: the leader's delete is requested, and nobody there confirms it.
      new CoreV1Api(admin).deleteNamespacedPod("stranded-learner", JOBS_NAMESPACE).execute();

      await(
              "the job's pods on the lost node are force-deleted and the job runs elsewhere to success")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(300))
          .ignoreExceptions()
          .until(() -> "Succeeded".equals(stage(admin)));
      V1alpha1TYJob done =
          ArrangerResources.tyJobs(admin)
              .get(JOBS_NAMESPACE, "stranded")
              .throwsApiException()
              .getObject();
      assertThat(done.getStatus().getLeader().getNode()).isEqualTo("unreachable-good");
      // Events are recorded after the status write that causes them, so they are awaited.
      await("the release's Warning")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                List<CoreV1Event> released =
                    new CoreV1Api(admin)
                            .listNamespacedEvent(JOBS_NAMESPACE)
                            .fieldSelector("involvedObject.name=stranded")
                            .execute()
                            .getItems()
                            .stream()
                            .filter(event -> "NodeUnreachable".equals(event.getReason()))
                            .toList();
                assertThat(released)
                    .isNotEmpty()
                    .allSatisfy(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getMessage())
                              .contains(
                                  "node unreachable-lost has not been Ready since",
                                  "longer than its grace of 2s");
                        });
              });
      assertThat(controller.leader().orElseThrow().logTail()).doesNotContain("is forbidden");
    }
  }

  private static String stage(ApiClient admin) throws Exception {
    V1alpha1TYJob job =
        ArrangerResources.tyJobs(admin)
            .get(JOBS_NAMESPACE, "stranded")
            .throwsApiException()
            .getObject();
    return job.getStatus() == null || job.getStatus().getStage() == null
        ? ""
        : job.getStatus().getStage().getValue();
  }

  private static Optional<V1Pod> pod(ApiClient admin, String name) throws Exception {
    return new CoreV1Api(admin)
        .listNamespacedPod(JOBS_NAMESPACE).execute().getItems().stream()
            .filter(pod -> name.equals(pod.getMetadata().getName()))
            .findFirst();
  }
}
