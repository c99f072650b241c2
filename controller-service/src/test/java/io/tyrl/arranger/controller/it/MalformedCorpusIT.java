package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Status;
import io.tyrl.arranger.controller.kube.LeaderOnlyController;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.MalformedTYJob;
import io.tyrl.arranger.testing.MalformedTYJob.Outcome;
import io.tyrl.arranger.testing.MalformedTYJobs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The malformed TYJob corpus ({@code testing/src/main/resources/malformed-tyjobs/}) submitted among
 * good jobs on the real API server, with the controller running in-process and the test acting as
 * scheduler and kubelet for the good jobs: each malformed job is refused by the API server naming
 * its field, or stored and ended Failed with {@code Validated=False} naming its field; every good
 * job, submitted before, amid and after them, runs to Succeeded; and the controller stays ready,
 * leading, and never had a reconcile crash.
 */
@ExtendWith(KubeApiServerExtension.class)
class MalformedCorpusIT {

  private static final Logger log = LoggerFactory.getLogger(MalformedCorpusIT.class);
  private static final int WORKERS_PER_GOOD_JOB = 2;

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "corpus");
    controller = cluster.startController("corpus-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void everyMalformedJobIsRefusedOrFailedNamingItsFieldAndEveryGoodJobAmongThemSucceeds()
      throws Exception {
    List<MalformedTYJob> corpus = MalformedTYJobs.load();
    assertThat(corpus).hasSizeGreaterThanOrEqualTo(20);
    List<String> goodJobs = new ArrayList<>();
    Map<MalformedTYJob, Optional<V1Status>> refusals = new LinkedHashMap<>();

    goodJobs.add(createGoodJob("good-before"));
    for (int i = 0; i < corpus.size(); i++) {
      refusals.put(corpus.get(i), submit(corpus.get(i)));
      if (i == corpus.size() / 2) {
        goodJobs.add(createGoodJob("good-amid"));
      }
    }
    goodJobs.add(createGoodJob("good-after"));

    SoftAssertions softly = new SoftAssertions();
    List<MalformedTYJob> stored = new ArrayList<>();
    refusals.forEach(
        (job, refusal) -> {
          refusal.ifPresent(
              status ->
                  log.info(
                      "corpus {}: refused ({}): {}",
                      job.file(),
                      status.getCode(),
                      status.getMessage()));
          if (job.expected() == Outcome.REFUSED) {
            softly.assertThat(refusal).as("%s must be refused", job).isPresent();
            refusal.ifPresent(
                status -> {
                  softly.assertThat(status.getCode()).as("%s: HTTP status", job).isEqualTo(422);
                  softly
                      .assertThat(job.isNamedIn(status.getMessage()))
                      .as(
                          "%s: the API server's message names %s: %s",
                          job, job.field(), status.getMessage())
                      .isTrue();
                });
          } else {
            softly
                .assertThat(refusal.map(V1Status::getMessage))
                .as("%s must be stored, not refused", job)
                .isEmpty();
          }
          if (refusal.isEmpty()) {
            stored.add(job);
          }
        });

    runToSuccess(goodJobs);
    awaitTerminal(stored);
    for (MalformedTYJob job : stored) {
      JsonObject status = cluster.status(job.name());
      softly
          .assertThat(string(status, "stage"))
          .as("%s: stage; status %s", job, status)
          .isEqualTo("Failed");
      Optional<JsonObject> validated = condition(status, "Validated");
      softly
          .assertThat(validated.map(c -> string(c, "status")))
          .as("%s: Validated", job)
          .contains("False");
      String message = validated.map(c -> string(c, "message")).orElse("");
      log.info(
          "corpus {}: {} with Validated=False: {}", job.file(), string(status, "stage"), message);
      softly
          .assertThat(job.isNamedIn(message))
          .as("%s: the condition names %s: %s", job, job.field(), message)
          .isTrue();
      softly.assertThat(cluster.pods(job.name())).as("%s: no pod made for it", job).isEmpty();
    }
    for (String good : goodJobs) {
      softly.assertThat(cluster.stage(good)).as(good).isEqualTo("Succeeded");
    }
    softly.assertAll();

    assertTheControllerIsWell();
  }

  private String createGoodJob(String name) throws ApiException {
    cluster.createJob(
        TYJobBody.named(name)
            .workerSet("actor", WORKERS_PER_GOOD_JOB)
            .spec("minWorkersNum", WORKERS_PER_GOOD_JOB));
    return name;
  }

  /** Creates the job as written; the API server's refusal if it refused it. */
  private Optional<V1Status> submit(MalformedTYJob job) {
    try {
      cluster
          .custom
          .createNamespacedCustomObject(
              ArrangerResources.GROUP,
              ArrangerResources.VERSION,
              cluster.namespace,
              ArrangerResources.TYJOBS,
              job.body())
          .execute();
      return Optional.empty();
    } catch (ApiException refused) {
      V1Status status = new JSON().deserialize(refused.getResponseBody(), V1Status.class);
      return Optional.of(
          status == null
              ? new V1Status().code(refused.getCode()).message(refused.getMessage())
              : status);
    }
  }

  /**
   * As the scheduler and the kubelet: places each good job, runs its pods, lets its leader succeed.
   */
  private void runToSuccess(List<String> jobs) throws ApiException {
    for (String job : jobs) {
      cluster.scheduleAll(job, "actor", WORKERS_PER_GOOD_JOB);
    }
    for (String job : jobs) {
      cluster.awaitPod(job + "-learner");
      cluster.run(job + "-learner");
    }
    for (String job : jobs) {
      IntStream.range(0, WORKERS_PER_GOOD_JOB)
          .mapToObj(i -> job + "-actor-" + i)
          .forEach(
              worker -> {
                cluster.awaitPod(worker);
                cluster.run(worker);
              });
      cluster.awaitStage(job, "Running");
      cluster.succeed(job + "-learner");
    }
    jobs.forEach(job -> cluster.awaitStage(job, "Succeeded"));
  }

  /**
   * Waits until every stored malformed job has a stage that can no longer change by itself; the
   * soft assertions after it then name each job that did not end as it should.
   */
  private void awaitTerminal(List<MalformedTYJob> jobs) {
    try {
      await("every stored malformed job Failed")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  jobs.stream()
                      .allMatch(
                          job ->
                              List.of("Failed", "Succeeded").contains(cluster.stage(job.name()))));
    } catch (ConditionTimeoutException notAll) {
      // Reported per job below, with its status.
    }
  }

  private void assertTheControllerIsWell() throws Exception {
    String port = controller.getEnvironment().getRequiredProperty("local.server.port");
    HttpResponse<String> readiness = get(port, "/actuator/health/readiness");
    assertThat(readiness.statusCode()).isEqualTo(200);
    assertThat(readiness.body()).contains("\"status\":\"UP\"");
    assertThat(controller.getBean(LeaderOnlyController.class).isReconciling())
        .as("still leading and reconciling")
        .isTrue();
    assertThat(get(port, "/actuator/prometheus").body())
        .as(
            "no reconcile threw: every malformed job was handled as a result, not contained as a crash")
        .contains("arranger_controller_reconcile_duration_seconds_count{result=\"success\"}")
        .doesNotContain("arranger_controller_reconcile_crashes_total");
  }

  private static Optional<JsonObject> condition(JsonObject status, String type) {
    JsonElement conditions = status.get("conditions");
    if (conditions == null || !conditions.isJsonArray()) {
      return Optional.empty();
    }
    for (JsonElement condition : conditions.getAsJsonArray()) {
      if (type.equals(string(condition.getAsJsonObject(), "type"))) {
        return Optional.of(condition.getAsJsonObject());
      }
    }
    return Optional.empty();
  }

  private static String string(JsonObject object, String member) {
    JsonElement value = object.get(member);
    return value == null || value.isJsonNull() ? "" : value.getAsString();
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
