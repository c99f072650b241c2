package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A kubelet refusal, end to end with both services from their jars: the only node that fits a job
 * refuses its leader (OutOfcpu; the test is that node's kubelet). The job is rescheduled without a
 * restart, and the scheduler does not choose that node again: the job waits, saying which node it
 * avoids until when. Once another node joins, the job runs there and succeeds.
 */
@ExtendWith(KubeApiServerExtension.class)
class KubeletRefusalEndToEndIT {

  private static final String JOBS_NAMESPACE = "refusal-jobs";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  @Test
  void theNodeThatRefusedAJobsLeaderIsNotChosenAgainAndTheJobRunsElsewhere(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    E2eServices cluster =
        E2eServices.prepare(controlPlane, admin, nodes, "refusal", JOBS_NAMESPACE, 0);
    String refuser = "refusal-refuser";
    // Not a simulated node: nothing but this test acts as its kubelet.
    nodes.register(
        NodeSpec.named(refuser)
            .cpu("8")
            .memory("32Gi")
            .pods(110)
            .label(E2eServices.NODE_LABEL, "refusal")
            .build());
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(3));
        ReplicaSet scheduler =
            cluster.replicas("scheduler", LEASE_DURATION, RETRY_PERIOD, null).start(1);
        ReplicaSet controller =
            cluster.replicas("controller", LEASE_DURATION, RETRY_PERIOD, null).start(1)) {
      scheduler.awaitAllReady(Duration.ofMinutes(3));
      controller.awaitAllReady(Duration.ofMinutes(3));

      TYJobBuilder.named("picky")
          .namespace(JOBS_NAMESPACE)
          .leader("learner", "2", "2Gi")
          .workers("actor", 1, "1", "1Gi")
          .set("minWorkersNum", 1)
          .set("restartLimit", 0)
          .nodeSelector(E2eServices.NODE_LABEL, "refusal")
          .create(admin);
      V1Pod leader =
          await("the leader is created on the only node")
              .atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(200))
              .until(() -> pod(admin, "picky-learner"), Optional::isPresent)
              .orElseThrow();
      assertThat(leader.getSpec().getNodeName()).isEqualTo(refuser);
      new SimulatedKubelet(admin).reject(JOBS_NAMESPACE, "picky-learner", "OutOfcpu");

      await("the scheduler keeps the job off the node that refused it")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                V1alpha1TYJob job = job(admin);
                assertThat(job.getStatus().getStage().getValue()).isEqualTo("Rescheduling");
                assertThat(job.getStatus().getAvoidNodes())
                    .singleElement()
                    .satisfies(avoided -> assertThat(avoided.getNode()).isEqualTo(refuser));
                assertThat(job.getStatus().getScheduling().getReason()).isEqualTo("Unschedulable");
                assertThat(job.getStatus().getScheduling().getMessage())
                    .contains(
                        "node(s) where the kubelet refused this job's pod ("
                            + refuser
                            + ": OutOfcpu), avoided until");
              });
      assertThat(job(admin).getStatus().getAllocations())
          .as("not placed on the refusing node again")
          .isNullOrEmpty();

      nodes.register(
          NodeSpec.named("refusal-good")
              .cpu("8")
              .memory("32Gi")
              .pods(110)
              .label(SimulatedNodeAgent.SIMULATED_LABEL, "true")
              .label(E2eServices.NODE_LABEL, "refusal")
              .build());
      await("the job runs on the node that joined, and succeeds")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(300))
          .ignoreExceptions()
          .until(() -> "Succeeded".equals(job(admin).getStatus().getStage().getValue()));
      V1alpha1TYJob done = job(admin);
      assertThat(done.getStatus().getLeader().getRestarts()).as("a refusal is no restart").isZero();
      assertThat(done.getStatus().getLeader().getNode()).isEqualTo("refusal-good");
      assertThat(controller.leader().orElseThrow().logTail()).doesNotContain("is forbidden");
    }
  }

  private static V1alpha1TYJob job(ApiClient admin) throws Exception {
    return ArrangerResources.tyJobs(admin)
        .get(JOBS_NAMESPACE, "picky")
        .throwsApiException()
        .getObject();
  }

  private static Optional<V1Pod> pod(ApiClient admin, String name) throws Exception {
    return new CoreV1Api(admin)
        .listNamespacedPod(JOBS_NAMESPACE).execute().getItems().stream()
            .filter(pod -> name.equals(pod.getMetadata().getName()))
            .findFirst();
  }
}
