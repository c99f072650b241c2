package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * TYJobs the typed model refuses — a template without containers, a quantity {@code "abc"} — are
 * accepted by the API server (templates are free-form in the CRD). They must not stop the
 * scheduler's informer: each is reported by its field, and every other job, created before or after
 * them, is scheduled.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerMalformedJobsIT {

  @Test
  void malformedJobsAreReportedByTheirFieldAndEveryOtherJobIsScheduled(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("malformed");
    String namespace = ClusterFixtures.namespace(client, "malformed");
    for (int i = 0; i < 4; i++) {
      nodes.register(
          NodeSpec.named(test + "-node-" + i)
              .cpu("4")
              .memory("16Gi")
              .label("arranger-test", test)
              .build());
    }
    good("early-0", namespace, test).create(client);
    good("early-1", namespace, test).create(client);
    TYJobBuilder.named("bad-quantity")
        .namespace(namespace)
        .leader("learner", "abc", "1Gi")
        .workers("actor", 1, "500m", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);
    Map<String, Object> noContainers = good("no-containers", namespace, test).build();
    leaderPodSpec(noContainers).remove("containers");
    create(client, namespace, noContainers);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      good("late-0", namespace, test).create(client);

      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () -> {
                for (String job : List.of("early-0", "early-1", "late-0")) {
                  assertThat(allocations(client, namespace, job))
                      .as("allocations of %s", job)
                      .containsKey(job + "-learner")
                      .hasSize(3);
                }
                assertThat(scheduling(client, namespace, "bad-quantity"))
                    .containsEntry("reason", "InvalidJob")
                    .hasEntrySatisfying(
                        "message",
                        message ->
                            assertThat((String) message)
                                .contains("spec.leader.template.spec.containers[0]")
                                .contains("abc"));
                assertThat(scheduling(client, namespace, "no-containers"))
                    .containsEntry("reason", "InvalidJob")
                    .hasEntrySatisfying(
                        "message",
                        message ->
                            assertThat((String) message)
                                .contains("spec.leader.template")
                                .contains("containers"));
              });
      // Events are written asynchronously by the recorder, shortly after the status.
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                List<CoreV1Event> events =
                    new CoreV1Api(client).listNamespacedEvent(namespace).execute().getItems();
                assertThat(events)
                    .filteredOn(e -> "InvalidJob".equals(e.getReason()))
                    .extracting(e -> e.getInvolvedObject().getName())
                    .containsExactlyInAnyOrder("bad-quantity", "no-containers");
              });
      assertThat(scheduler.get("/actuator/health/readiness")).startsWith("200");
      assertThat(scheduler.counter("arranger.scheduler.cycle.failures")).isZero();
    }
  }

  private static TYJobBuilder good(String name, String namespace, String test) {
    return TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", "500m", "1Gi")
        .workers("actor", 2, "500m", "1Gi")
        .nodeSelector("arranger-test", test);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> leaderPodSpec(Map<String, Object> job) {
    Map<String, Object> spec = (Map<String, Object>) job.get("spec");
    Map<String, Object> leader =
        new java.util.LinkedHashMap<>((Map<String, Object>) spec.get("leader"));
    Map<String, Object> template =
        new java.util.LinkedHashMap<>((Map<String, Object>) leader.get("template"));
    Map<String, Object> podSpec =
        new java.util.LinkedHashMap<>((Map<String, Object>) template.get("spec"));
    template.put("spec", podSpec);
    leader.put("template", template);
    spec.put("leader", leader);
    return podSpec;
  }

  private static void create(ApiClient client, String namespace, Map<String, Object> job)
      throws Exception {
    new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            namespace,
            ArrangerResources.TYJOBS,
            job)
        .execute();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(ApiClient client, String namespace, String job)
      throws Exception {
    Map<String, Object> object =
        (Map<String, Object>)
            new CustomObjectsApi(client)
                .getNamespacedCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    namespace,
                    ArrangerResources.TYJOBS,
                    job)
                .execute();
    Object status = object.get("status");
    return status == null ? Map.of() : (Map<String, Object>) status;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> allocations(ApiClient client, String namespace, String job)
      throws Exception {
    Object allocations = status(client, namespace, job).get("allocations");
    return allocations == null ? Map.of() : (Map<String, Object>) allocations;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> scheduling(ApiClient client, String namespace, String job)
      throws Exception {
    Object scheduling = status(client, namespace, job).get("scheduling");
    return scheduling == null ? Map.of() : (Map<String, Object>) scheduling;
  }
}
