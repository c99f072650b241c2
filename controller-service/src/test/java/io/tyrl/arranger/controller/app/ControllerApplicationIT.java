package io.tyrl.arranger.controller.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import io.tyrl.arranger.controller.kube.LeaderOnlyController;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The application as deployed: probes, metrics, and leadership, against a real API server. */
@ExtendWith(KubeApiServerExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ControllerApplicationIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String NAMESPACE = "app-" + UUID.randomUUID().toString().substring(0, 6);
  private static ControlPlane controlPlane;
  private static Path kubeconfig;

  @Autowired Environment environment;
  @Autowired LeaderOnlyController controller;

  @BeforeAll
  static void prepareCluster(ControlPlane plane) throws Exception {
    controlPlane = plane;
    kubeconfig =
        plane.writeKubeconfig(
            Files.createTempDirectory("arranger-app-it").resolve("kubeconfig"), ControlPlane.ADMIN);
    new CoreV1Api(plane.adminClient())
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE)))
        .execute();
  }

  @DynamicPropertySource
  static void pointAtTheTestCluster(DynamicPropertyRegistry registry) {
    commonProperties("app-it-leader").forEach((key, value) -> registry.add(key, () -> value));
  }

  private static Map<String, String> commonProperties(String identity) {
    return Map.ofEntries(
        Map.entry("arranger.kubernetes.kubeconfig", kubeconfig.toString()),
        Map.entry("arranger.kubernetes.readiness-period", "300ms"),
        Map.entry("arranger.watch.namespaces", NAMESPACE),
        Map.entry("arranger.leader-election.lease-namespace", NAMESPACE),
        Map.entry("arranger.leader-election.identity", identity),
        Map.entry("arranger.leader-election.lease-duration", "4s"),
        Map.entry("arranger.kubernetes.request-timeout", "2s"),
        Map.entry("arranger.leader-election.renew-deadline", "3s"),
        Map.entry("arranger.leader-election.retry-period", "300ms"));
  }

  @Test
  void livenessIsUp() throws Exception {
    HttpResponse<String> liveness = get(port(environment), "/actuator/health/liveness");

    assertThat(liveness.statusCode()).isEqualTo(200);
    assertThat(liveness.body()).contains("\"status\":\"UP\"");
  }

  @Test
  void readyOnceTheInformersHaveSyncedAndLeading() {
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              HttpResponse<String> readiness = get(port(environment), "/actuator/health/readiness");
              assertThat(readiness.statusCode()).isEqualTo(200);
              assertThat(readiness.body()).contains("\"status\":\"UP\"");
            });
    await().atMost(TIMEOUT).until(controller::isReconciling);
  }

  @Test
  void prometheusExposesTheControllerMetrics() throws Exception {
    ApiClient admin = controlPlane.adminClient();
    String job = "metered";
    new CustomObjectsApi(admin)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            NAMESPACE,
            ArrangerResources.TYJOBS,
            Map.of(
                "apiVersion",
                ArrangerResources.API_VERSION,
                "kind",
                "TYJob",
                "metadata",
                Map.of("name", job),
                "spec",
                Map.of(
                    "leader", Map.of("name", "learner", "template", template("learner")),
                    "workerSets", List.of(Map.of("name", "actor", "template", template("actor"))))))
        .execute();
    JsonObject allocations = new JsonObject();
    allocations.addProperty(job + "-learner", "some-node");
    JsonObject status = new JsonObject();
    status.addProperty("scheduleState", "ScheduledPartly");
    status.add("allocations", allocations);
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    PatchUtils.patch(
        Object.class,
        () ->
            new CustomObjectsApi(admin)
                .patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    NAMESPACE,
                    ArrangerResources.TYJOBS,
                    job,
                    new V1Patch(patch.toString()))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        admin);

    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(get(port(environment), "/actuator/prometheus").body())
                    .contains(
                        "arranger_controller_stage_transitions_total{from=\"Pending\",to=\"Starting\"} 1.0")
                    .contains("arranger_controller_jobs{stage=\"Starting\"} 1.0")
                    .contains("arranger_controller_pod_creations_total{role=\"leader\"} 1.0")
                    .contains(
                        "arranger_controller_reconcile_duration_seconds_count{result=\"success\"}")
                    .contains("arranger_controller_job_start_duration_seconds_count")
                    .contains("arranger_leader{service=\"arranger-controller\"} 1.0")
                    .contains(
                        "arranger_controller_reconcile_duration_seconds_bucket{result=\"success\",le=\"0.001\"}")
                    .contains(
                        "workqueue_adds_total{name=\"tyjob\"}",
                        "workqueue_depth{name=\"tyjob\"}",
                        "workqueue_queue_duration_seconds_bucket{name=\"tyjob\",le=",
                        "workqueue_work_duration_seconds_bucket{name=\"tyjob\",le=",
                        "workqueue_retries_total{name=\"tyjob\"}",
                        "workqueue_unfinished_work_seconds{name=\"tyjob\"}",
                        "workqueue_longest_running_processor_seconds{name=\"tyjob\"}")
                    .contains(
                        "rest_client_requests_total{code=\"201\"",
                        "rest_client_request_duration_seconds_bucket{resource=\"pods\",verb=\"POST\"")
                    .doesNotContain("quantile="));
  }

  @Test
  void standbyReplicaIsReadyButReconcilesNothing() {
    await().atMost(TIMEOUT).until(controller::isReconciling);
    Map<String, Object> properties = new LinkedHashMap<>(commonProperties("app-it-standby"));
    properties.put("server.port", "0");
    properties.put("spring.main.banner-mode", "off");
    // Command-line arguments, so that they override application.yaml as in the leader's context.
    String[] arguments =
        properties.entrySet().stream()
            .map(property -> "--" + property.getKey() + "=" + property.getValue())
            .toArray(String[]::new);
    try (ConfigurableApplicationContext standby =
        new SpringApplicationBuilder(ControllerApplication.class).run(arguments)) {
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () -> {
                HttpResponse<String> readiness =
                    get(port(standby.getEnvironment()), "/actuator/health/readiness");
                assertThat(readiness.statusCode()).isEqualTo(200);
              });
      LeaderElection standbyElection = standby.getBean(LeaderElection.class);
      assertThat(standbyElection.identity()).isEqualTo("app-it-standby");
      assertThat(standbyElection.isLeader()).isFalse();
      assertThat(standby.getBean(LeaderOnlyController.class).isReconciling()).isFalse();
      assertThat(controller.isReconciling()).isTrue();
    }
  }

  private static Map<String, Object> template(String container) {
    return Map.of(
        "spec",
        Map.of(
            "containers",
            List.of(Map.of("name", container, "image", "registry.local/rl/" + container))));
  }

  private static String port(Environment environment) {
    return environment.getRequiredProperty("local.server.port");
  }

  private static HttpResponse<String> get(String port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
