package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.MalformedTYJobs;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.MalformedCorpus;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The malformed TYJob corpus ({@code testing/src/main/resources/malformed-tyjobs/}) submitted among
 * good jobs with both services running from their jars under the chart's RBAC: each malformed job
 * is refused by the API server naming its field, or marked by Arranger (Failed with {@code
 * Validated=False}, or {@code InvalidJob}) naming its field; every good job, before and after them,
 * succeeds; and both services stay ready without a restart.
 */
@ExtendWith(KubeApiServerExtension.class)
class MalformedCorpusEndToEndIT {

  private static final String TEST = "corpus";
  private static final String JOBS_NAMESPACE = "corpus-jobs";

  @Test
  void everyMalformedJobIsRefusedOrMarkedNamingItsFieldWhileGoodJobsSucceedAndBothServicesStayReady(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    E2eServices cluster = E2eServices.prepare(controlPlane, admin, nodes, TEST, JOBS_NAMESPACE, 6);
    try (SimulatedNodeAgent kubelet = cluster.kubelet(Duration.ofSeconds(3));
        ReplicaSet schedulers =
            cluster
                .replicas("scheduler", Duration.ofSeconds(15), Duration.ofSeconds(2), null)
                .start(1);
        ReplicaSet controllers =
            cluster
                .replicas("controller", Duration.ofSeconds(15), Duration.ofSeconds(2), null)
                .start(1)) {
      schedulers.awaitAllReady(Duration.ofMinutes(3));
      controllers.awaitAllReady(Duration.ofMinutes(3));

      good("good-before-0", admin);
      good("good-before-1", admin);
      List<MalformedCorpus.Case> cases =
          MalformedCorpus.submit(admin, MalformedTYJobs.load(), JOBS_NAMESPACE);
      good("good-after-0", admin);
      good("good-after-1", admin);

      assertThat(cases).hasSizeGreaterThanOrEqualTo(20);
      List<MalformedCorpus.Case> handled =
          MalformedCorpus.handled(admin, JOBS_NAMESPACE, cases, Duration.ofMinutes(2));
      assertThat(cases)
          .as("malformed jobs neither refused nor marked with their field")
          .filteredOn(c -> !handled.contains(c))
          .isEmpty();
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () ->
                  assertThat(goodJobsNotSucceeded(admin))
                      .as("good jobs not Succeeded, with their status")
                      .isEmpty());
      assertThat(schedulers.allReady()).as("the scheduler is still ready").isTrue();
      assertThat(controllers.allReady()).as("the controller is still ready").isTrue();
      assertThat(schedulers.restartExited()).as("scheduler replicas that exited").isEmpty();
      assertThat(controllers.restartExited()).as("controller replicas that exited").isEmpty();
    }
  }

  private static void good(String name, ApiClient admin) {
    TYJobBuilder.named(name)
        .namespace(JOBS_NAMESPACE)
        .leader("learner", "1", "2Gi")
        .workers("actor", 2, "1", "1Gi")
        .nodeSelector(E2eServices.NODE_LABEL, TEST)
        .create(admin);
  }

  /**
   * Each good job by name, read one by one: the namespace holds jobs the typed model refuses in a
   * list.
   */
  private static Map<String, String> goodJobsNotSucceeded(ApiClient admin) {
    Map<String, String> unfinished = new java.util.TreeMap<>();
    for (String name : List.of("good-before-0", "good-before-1", "good-after-0", "good-after-1")) {
      V1alpha1TYJob job = ArrangerResources.tyJobs(admin).get(JOBS_NAMESPACE, name).getObject();
      boolean succeeded =
          job != null
              && job.getStatus() != null
              && job.getStatus().getStage() != null
              && "Succeeded".equals(job.getStatus().getStage().getValue());
      if (!succeeded) {
        unfinished.put(name, job == null ? "not found" : String.valueOf(job.getStatus()));
      }
    }
    return unfinished;
  }
}
