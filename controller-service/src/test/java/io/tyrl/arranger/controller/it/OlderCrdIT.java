package io.tyrl.arranger.controller.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.CustomResourceDefinitions;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A TYJob CRD as it was before the bounds (no maxima, no maxItems) is installed, so the API server
 * stores what the current CRD refuses; the controller must refuse the same jobs itself: each ends
 * Failed with {@code Validated=False} naming the field and the value, no pod is made, no reconcile
 * crashes (a counts of 2147483647 once killed a worker with OutOfMemoryError), and a good job
 * beside them still runs. The current CRD is put back afterwards.
 */
@ExtendWith(KubeApiServerExtension.class)
class OlderCrdIT {

  /** What the CRD lacked before the bounds were added. */
  private static final Set<String> NEWER_KEYWORDS = Set.of("maximum", "maxItems");

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;
  private static ApiClient admin;

  @BeforeAll
  static void installTheOlderCrdAndStartTheController(ControlPlane controlPlane) throws Exception {
    admin = controlPlane.adminClient();
    cluster = ClusterHarness.inNewNamespace(controlPlane, "older-crd");
    replaceTyJobCrd(olderTyJobCrd());
    await("the API server takes counts 100000 under the older CRD")
        .atMost(ClusterHarness.TIMEOUT)
        .until(() -> dryRunCreate(100_000) == 201);
    controller = cluster.startController("older-crd-it");
  }

  @AfterAll
  static void putTheCurrentCrdBack() {
    if (controller != null) {
      controller.close();
    }
    CustomResourceDefinitions.install(admin);
    await("the API server refuses counts 100000 again")
        .atMost(ClusterHarness.TIMEOUT)
        .until(() -> dryRunCreate(100_000) == 422);
  }

  static Stream<Arguments> storedOutOfBounds() {
    return Stream.of(
        Arguments.of(
            "counts-int32-max",
            TYJobBody.named("counts-int32-max").workerSet("actor", Integer.MAX_VALUE),
            "spec.workerSets[0].counts: 2147483647 is more than the maximum 5000 per WorkerSet"),
        Arguments.of(
            "counts-100000",
            TYJobBody.named("counts-100000").workerSet("actor", 100_000),
            "spec.workerSets[0].counts: 100000 is more than the maximum 5000 per WorkerSet"),
        Arguments.of(
            "restart-limit-beyond-int32",
            TYJobBody.named("restart-limit-beyond-int32")
                .workerSet("actor", 1)
                .spec("restartLimit", 3_000_000_000L),
            "spec.restartLimit: 3000000000 is not a 32-bit integer"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storedOutOfBounds")
  void theControllerFailsAJobTheOlderCrdLetThroughNamingFieldAndValue(
      String job, TYJobBody body, String problem) throws Exception {
    cluster.createJob(body);

    cluster.awaitStage(job, "Failed");
    JsonObject validated = cluster.condition(job, "Validated");
    assertThat(validated.get("status").getAsString()).isEqualTo("False");
    assertThat(validated.get("message").getAsString()).contains(problem);
    assertThat(cluster.pods(job)).isEmpty();
    assertThat(prometheus())
        .as("no reconcile crashed")
        .doesNotContain("arranger_controller_reconcile_crashes_total");
  }

  @Test
  void aGoodJobBesideThemRuns() throws Exception {
    String job = "good";
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 1));
    cluster.scheduleAll(job, "actor", 1);
    cluster.awaitPod(job + "-learner");
    cluster.run(job + "-learner");
    cluster.run(cluster.awaitPod(job + "-actor-0").getMetadata().getName());

    cluster.awaitStage(job, "Running");
  }

  private static JsonObject olderTyJobCrd() {
    JsonObject crd =
        CustomResourceDefinitions.load().stream()
            .filter(
                candidate ->
                    candidate
                        .getAsJsonObject("metadata")
                        .get("name")
                        .getAsString()
                        .equals(ArrangerResources.TYJOBS + "." + ArrangerResources.GROUP))
            .findFirst()
            .orElseThrow();
    JsonObject spec =
        crd.getAsJsonObject("spec")
            .getAsJsonArray("versions")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("schema")
            .getAsJsonObject("openAPIV3Schema")
            .getAsJsonObject("properties")
            .getAsJsonObject("spec");
    stripNewerBounds(spec);
    return crd;
  }

  /**
   * Removes the newer keywords under {@code spec}, except priority's 1..10, which the CRD always
   * had.
   */
  private static void stripNewerBounds(JsonObject schema) {
    NEWER_KEYWORDS.forEach(schema::remove);
    JsonElement properties = schema.get("properties");
    if (properties != null) {
      properties.getAsJsonObject().entrySet().stream()
          .filter(property -> !property.getKey().equals("priority"))
          .forEach(property -> stripNewerBounds(property.getValue().getAsJsonObject()));
    }
    JsonElement items = schema.get("items");
    if (items != null) {
      stripNewerBounds(items.getAsJsonObject());
    }
  }

  private static void replaceTyJobCrd(JsonObject crd) {
    DynamicKubernetesApi crds =
        new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", admin);
    String name = crd.getAsJsonObject("metadata").get("name").getAsString();
    DynamicKubernetesObject current = crds.get(name).getObject();
    crd.getAsJsonObject("metadata")
        .addProperty("resourceVersion", current.getMetadata().getResourceVersion());
    var replaced = crds.update(new DynamicKubernetesObject(crd));
    assertThat(replaced.isSuccess()).as("replace the TYJob CRD: %s", replaced.getStatus()).isTrue();
  }

  /**
   * The HTTP status of a server-side dry run of a job with this counts: 201 stored, 422 refused.
   */
  private static int dryRunCreate(int counts) {
    try {
      cluster
          .custom
          .createNamespacedCustomObject(
              ArrangerResources.GROUP,
              ArrangerResources.VERSION,
              cluster.namespace,
              ArrangerResources.TYJOBS,
              TYJobBody.named("probe").workerSet("actor", counts).build())
          .dryRun("All")
          .execute();
      return 201;
    } catch (ApiException e) {
      return e.getCode();
    }
  }

  private static String prometheus() throws Exception {
    String port = controller.getEnvironment().getRequiredProperty("local.server.port");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.body();
  }
}
