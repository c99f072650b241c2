package io.tyrl.arranger.kube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatusPatcherTest {

  private static final String PATH =
      "/apis/arranger.tyrl.io/v1alpha1/namespaces/rl/tyjobs/pong/status";
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final String PATCHED =
      """
      {"apiVersion":"arranger.tyrl.io/v1alpha1","kind":"TYJob","metadata":{"name":"pong","namespace":"rl"},
       "status":{"stage":"Running"}}""";
  private static final StatusPatcher.Target TARGET =
      new StatusPatcher.Target("arranger.tyrl.io", "v1alpha1", "tyjobs", "rl", "pong");

  private final AtomicBoolean fence = new AtomicBoolean(true);
  private WireMockServer apiServer;
  private StatusPatcher patcher;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    ApiClient client = client();
    patcher =
        new StatusPatcher(
            client,
            new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 4),
            fence::get,
            Duration.ofSeconds(10));
  }

  /** A read timeout far above any answer of the fake server, even on a loaded machine. */
  private ApiClient client() {
    return client(Duration.ofSeconds(10));
  }

  private ApiClient client(Duration readTimeout) {
    ApiClient client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .build());
    return client;
  }

  @AfterEach
  void stop() {
    apiServer.stop();
  }

  @Test
  void sendsAMergePatchWithTheMergePatchContentType() {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .withHeader("Content-Type", equalTo(MERGE_PATCH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(PATCHED)));

    StatusPatcher.Result result = patcher.patch(TARGET, "{\"status\":{\"stage\":\"Running\"}}");

    assertThat(result)
        .isInstanceOfSatisfying(
            StatusPatcher.Result.Patched.class,
            patched ->
                assertThat(patched.object().getAsJsonObject("status").get("stage").getAsString())
                    .isEqualTo("Running"));
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withHeader("Content-Type", equalTo(MERGE_PATCH))
            .withRequestBody(equalToJson("{\"status\":{\"stage\":\"Running\"}}")));
  }

  @Test
  void retriesServerErrorsWithBackoffUntilTheyPass() {
    stubSequence(
        aResponse().withStatus(500).withBody("{\"message\":\"etcdserver: leader changed\"}"),
        aResponse().withStatus(503),
        aResponse()
            .withStatus(200)
            .withHeader("Content-Type", "application/json")
            .withBody(PATCHED));

    StatusPatcher.Result result = patcher.patch(TARGET, "{\"status\":{\"stage\":\"Running\"}}");

    assertThat(result).isInstanceOf(StatusPatcher.Result.Patched.class);
    apiServer.verify(
        3, patchRequestedFor(urlEqualTo(PATH)).withHeader("Content-Type", equalTo(MERGE_PATCH)));
  }

  @Test
  void unsupportedMediaTypeIsRefusedAtOnceWithTheServersMessage() {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(415)
                    .withBody(
                        "{\"message\":\"the body of the request was in an unknown format\"}")));

    StatusPatchException refused =
        catchThrowableOfType(
            StatusPatchException.class, () -> patcher.patch(TARGET, "{\"status\":{}}"));

    assertThat(refused.httpCode()).isEqualTo(415);
    assertThat(refused).hasMessageContaining("unknown format").hasMessageContaining("rl/pong");
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void timeoutsAreRetriedAndReportedAfterTheLastAttempt() {
    apiServer.stubFor(
        patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withFixedDelay(1_000)));
    StatusPatcher impatient =
        new StatusPatcher(
            client(Duration.ofMillis(300)),
            new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 4),
            fence::get,
            Duration.ofSeconds(10));

    StatusPatchException failed =
        catchThrowableOfType(
            StatusPatchException.class, () -> impatient.patch(TARGET, "{\"status\":{}}"));

    assertThat(failed.httpCode()).isZero();
    assertThat(failed).hasMessageContaining("failed 4 times");
    apiServer.verify(4, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void droppedConnectionsAreRetried() {
    stubSequence(
        aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
        aResponse()
            .withStatus(200)
            .withHeader("Content-Type", "application/json")
            .withBody(PATCHED));

    assertThat(patcher.patch(TARGET, "{\"status\":{}}"))
        .isInstanceOf(StatusPatcher.Result.Patched.class);
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aConflictIsReportedAndNeitherRetriedNorRederived() {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(409)
                    .withBody("{\"message\":\"the object has been modified\"}")));

    StatusPatcher.Result result =
        patcher.patch(TARGET, "{\"metadata\":{\"resourceVersion\":\"41\"},\"status\":{}}");

    assertThat(result).isInstanceOf(StatusPatcher.Result.Conflict.class);
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
    apiServer.verify(0, getRequestedFor(urlEqualTo(PATH.replace("/status", ""))));
  }

  @Test
  void aFencedReplicaSendsNothing() {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(PATCHED)));
    fence.set(false);

    assertThat(patcher.patch(TARGET, "{\"status\":{}}"))
        .isInstanceOf(StatusPatcher.Result.Fenced.class);
    apiServer.verify(0, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void theFenceIsAskedBeforeEveryRetry() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
    AtomicInteger asked = new AtomicInteger();
    StatusPatcher losingLeadership =
        new StatusPatcher(
            client(),
            new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 6),
            () -> asked.incrementAndGet() <= 2,
            Duration.ofSeconds(10));

    assertThat(losingLeadership.patch(TARGET, "{\"status\":{}}"))
        .isInstanceOf(StatusPatcher.Result.Fenced.class);
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void retriesStopWhenTheNextPauseWouldPassTheBudget() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
    // Each reading of the clock is 45 ms after the last: the first failure is seen at 45 ms (+ a
    // pause
    // of 32–40 ms stays inside 100 ms), the second at 90 ms (+ the pause would pass it).
    AtomicLong clock = new AtomicLong();
    StatusPatcher budgeted =
        new StatusPatcher(
            client(),
            new Backoff(Duration.ofMillis(40), Duration.ofMillis(40), 100),
            () -> true,
            Duration.ofMillis(100),
            () -> clock.getAndAdd(Duration.ofMillis(45).toNanos()));

    StatusPatchException failed =
        catchThrowableOfType(
            StatusPatchException.class, () -> budgeted.patch(TARGET, "{\"status\":{}}"));

    assertThat(failed).hasMessageContaining("failed 2 times");
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aDeletedObjectIsNotAnError() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(404)));

    assertThat(patcher.patch(TARGET, "{\"status\":{}}"))
        .isInstanceOf(StatusPatcher.Result.Gone.class);
  }

  private void stubSequence(
      com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder... responses) {
    String state = Scenario.STARTED;
    for (int i = 0; i < responses.length; i++) {
      String next = i == responses.length - 1 ? state : "attempt-" + (i + 2);
      apiServer.stubFor(
          patch(urlEqualTo(PATH))
              .inScenario("sequence")
              .whenScenarioStateIs(state)
              .withHeader("Content-Type", equalTo(MERGE_PATCH))
              .willReturn(responses[i])
              .willSetStateTo(next));
      state = next;
    }
  }
}
