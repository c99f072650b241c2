package io.tyrl.arranger.kube.events;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The recorder's write path against a fake API server: create, patch, fallbacks, fence, bounds. */
class EventRecorderTest {

  private static final String EVENTS = "/api/v1/namespaces/rl/events";
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final InvolvedObject JOB =
      new InvolvedObject("arranger.tyrl.io/v1alpha1", "TYJob", "rl", "pong", "u-1");
  private static final String CREATED =
      "{\"metadata\":{\"name\":\"pong.1\",\"namespace\":\"rl\"},\"involvedObject\":{}}";

  private final AtomicBoolean leading = new AtomicBoolean(true);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private WireMockServer apiServer;
  private EventRecorder recorder;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    apiServer.stubFor(post(urlEqualTo(EVENTS)).willReturn(json(201, CREATED)));
    apiServer.stubFor(patch(urlMatching(EVENTS + "/.*")).willReturn(json(200, CREATED)));
    recorder = recorder(EventRecorderProperties.defaults());
  }

  private EventRecorder recorder(EventRecorderProperties settings) {
    ApiClient client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    return new EventRecorder(
        client,
        "arranger-test",
        "replica-a",
        leading::get,
        settings,
        registry,
        Clock.fixed(Instant.parse("2026-11-24T10:00:00Z"), ZoneOffset.UTC));
  }

  private static EventRecorderProperties withQueue(int capacity, int attempts) {
    return new EventRecorderProperties(
        capacity,
        Duration.ofMinutes(10),
        10,
        25,
        Duration.ofMinutes(5),
        4096,
        1024,
        attempts,
        Duration.ofMillis(5),
        Duration.ofMillis(20));
  }

  @AfterEach
  void stop() {
    recorder.close();
    apiServer.stop();
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(
      int status, String body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withBody(body);
  }

  private double count(String result) {
    var counter = registry.find("arranger.events").tag("result", result).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aRepeatIsOneMergePatchOfCountTimestampAndAnEscapedMessage() {
    String message = "leader pod \"pong-learner\" \\ waits";
    recorder.record(JOB, EventType.WARNING, "Unschedulable", message);
    recorder.record(JOB, EventType.WARNING, "Unschedulable", message);
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

    apiServer.verify(
        1,
        postRequestedFor(urlEqualTo(EVENTS))
            .withRequestBody(matchingJsonPath("$.count", equalTo("1")))
            .withRequestBody(matchingJsonPath("$.reason", equalTo("Unschedulable")))
            .withRequestBody(matchingJsonPath("$.type", equalTo("Warning")))
            .withRequestBody(matchingJsonPath("$.message", equalTo(message)))
            .withRequestBody(matchingJsonPath("$.involvedObject.uid", equalTo("u-1")))
            .withRequestBody(matchingJsonPath("$.source.component", equalTo("arranger-test")))
            .withRequestBody(matchingJsonPath("$.reportingInstance", equalTo("replica-a"))));
    String name =
        JsonParser.parseString(
                apiServer.findAll(postRequestedFor(urlEqualTo(EVENTS))).get(0).getBodyAsString())
            .getAsJsonObject()
            .getAsJsonObject("metadata")
            .get("name")
            .getAsString();
    assertThat(name).startsWith("pong.");
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(EVENTS + "/" + name))
            .withHeader("Content-Type", equalTo(MERGE_PATCH))
            .withRequestBody(matchingJsonPath("$.count", equalTo("2")))
            .withRequestBody(matchingJsonPath("$.message", equalTo(message)))
            .withRequestBody(matchingJsonPath("$.lastTimestamp", equalTo("2026-11-24T10:00:00Z"))));
    assertThat(count("created")).isEqualTo(1);
    assertThat(count("patched")).isEqualTo(1);
  }

  @Test
  void aPatchOfAnEventThatIsGoneCreatesItAgainWithItsCount() {
    apiServer.stubFor(
        patch(urlMatching(EVENTS + "/.*")).willReturn(json(404, "{\"reason\":\"NotFound\"}")));
    recorder.record(JOB, EventType.NORMAL, "Scheduled", "placed");
    recorder.record(JOB, EventType.NORMAL, "Scheduled", "placed");
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

    apiServer.verify(
        1,
        postRequestedFor(urlEqualTo(EVENTS))
            .withRequestBody(matchingJsonPath("$.count", equalTo("2"))));
    assertThat(count("created")).isEqualTo(2);
  }

  @Test
  void transientFailuresAreRetriedAndRefusalsAreNot() {
    recorder.close();
    recorder = recorder(withQueue(10, 3));
    apiServer.stubFor(
        post(urlEqualTo(EVENTS))
            .inScenario("flaky")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(503))
            .willSetStateTo("up"));
    apiServer.stubFor(
        post(urlEqualTo(EVENTS))
            .inScenario("flaky")
            .whenScenarioStateIs("up")
            .willReturn(json(201, CREATED)));
    recorder.record(JOB, EventType.NORMAL, "Scheduled", "placed");
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();
    apiServer.verify(2, postRequestedFor(urlEqualTo(EVENTS)));
    assertThat(count("created")).isEqualTo(1);

    apiServer.resetAll();
    apiServer.stubFor(post(urlEqualTo(EVENTS)).willReturn(json(403, "{\"reason\":\"Forbidden\"}")));
    recorder.record(JOB, EventType.NORMAL, "Started", "running");
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();
    apiServer.verify(1, postRequestedFor(urlEqualTo(EVENTS)));
    assertThat(count("failed")).isEqualTo(1);
  }

  @Test
  void aFencedReplicaSendsNothing() {
    leading.set(false);
    recorder.record(JOB, EventType.WARNING, "Unschedulable", "waits");
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

    assertThat(apiServer.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    assertThat(count("fenced")).isEqualTo(1);
  }

  @Test
  void aFullQueueDropsTheWriteWithoutWaiting() {
    recorder.close();
    recorder = recorder(withQueue(1, 1));
    apiServer.stubFor(post(urlEqualTo(EVENTS)).willReturn(json(201, CREATED).withFixedDelay(500)));

    long started = System.nanoTime();
    for (int i = 0; i < 6; i++) {
      recorder.record(JOB, EventType.WARNING, "Reason" + i, "message " + i);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("record never waits for the API server")
        .isLessThan(Duration.ofMillis(400));
    assertThat(recorder.awaitIdle(Duration.ofSeconds(10))).isTrue();

    assertThat(count("dropped")).isGreaterThanOrEqualTo(4);
    assertThat(count("created") + count("dropped")).isEqualTo(6);
  }

  @Test
  void aLongMessageIsCut() {
    recorder.record(JOB, EventType.WARNING, "InvalidJob", "x".repeat(5000));
    assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

    String sent =
        JsonParser.parseString(
                apiServer.findAll(postRequestedFor(urlEqualTo(EVENTS))).get(0).getBodyAsString())
            .getAsJsonObject()
            .get("message")
            .getAsString();
    assertThat(sent).hasSize(1024).endsWith("...");
  }
}
