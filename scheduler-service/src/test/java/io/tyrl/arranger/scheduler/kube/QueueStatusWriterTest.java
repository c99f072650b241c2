package io.tyrl.arranger.scheduler.kube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Queue's status is written once per change: not again while unchanged, nor before the informer
 * shows a write. A tree problem becomes the {@code TreeValid} condition and one Warning Event when
 * it appears or changes, not one per cycle.
 */
class QueueStatusWriterTest {

  private static final String PATH = "/apis/arranger.tyrl.io/v1alpha1/queues/research/status";
  private static final String EVENTS = "/api/v1/namespaces/default/events";
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final String VALID_CONDITION =
      "{\"type\":\"TreeValid\",\"status\":\"True\",\"lastTransitionTime\":\"2026-11-27T12:00:00Z\"}";
  private static final String VALID = "\"conditions\":[" + VALID_CONDITION + "]";
  private static final QueueSummary SUMMARY =
      new QueueSummary(
          "research",
          Resource.of("cpu", "10", "memory", "40Gi"),
          Resource.of("cpu", "6500m", "memory", "12Gi", "nvidia.com/gpu", "2"),
          1,
          2,
          3,
          false,
          3);
  private static final String STATUS =
      """
      {"deserved":{"cpu":"10","memory":"40Gi"},"allocated":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":"2"},
       "guarantee":{},"overQuota":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":"2"},
       "pending":1,"inqueue":2,"running":3,"overused":false,"parent":null,%s}"""
          .formatted(VALID);

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final AtomicBoolean leading = new AtomicBoolean(true);
  private WireMockServer apiServer;
  private EventRecorder events;
  private QueueStatusWriter writer;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"metadata\":{\"name\":\"research\",\"resourceVersion\":\"12\"}}")));
    apiServer.stubFor(
        post(urlEqualTo(EVENTS))
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"metadata\": {\"name\": \"research.1\", \"namespace\": \"default\"}, \"involvedObject\": {}}")));
    ApiClient client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    events =
        EventRecorder.standalone(
            client, "arranger-scheduler", "test", leading::get, Clock.systemUTC());
    writer =
        new QueueStatusWriter(
            new StatusPatcher(
                client,
                new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 3),
                leading::get,
                Duration.ofSeconds(5)),
            threads,
            events);
  }

  @AfterEach
  void stop() {
    events.close();
    apiServer.stop();
    threads.shutdownNow();
  }

  private static Map<String, ClusterInformers.ObservedQueue> observed(
      String resourceVersion, String status) {
    JsonObject json = status == null ? null : JsonParser.parseString(status).getAsJsonObject();
    return Map.of(
        "research",
        new ClusterInformers.ObservedQueue("research", "uid-research", resourceVersion, json));
  }

  private QueueStatusWriter.Report write(
      QueueSummary summary, Map<String, ClusterInformers.ObservedQueue> observed, Instant now) {
    return writer.write(Map.of(summary.name(), summary), observed, now);
  }

  /** Events are sent asynchronously: counted once the recorder has sent what it was given. */
  private int eventsSent() {
    assertThat(events.awaitIdle(Duration.ofSeconds(10))).as("events sent").isTrue();
    return apiServer.findAll(postRequestedFor(urlEqualTo(EVENTS))).size();
  }

  private static QueueSummary inTree(String parent, String treeProblem) {
    return new QueueSummary(
        "research",
        Resource.of("cpu", "10"),
        Resource.of("cpu", "12"),
        0,
        0,
        2,
        true,
        0,
        parent,
        Resource.of("cpu", "8", "nvidia.com/gpu", "1"),
        Resource.of("cpu", "4"),
        treeProblem);
  }

  private static String storedInTree(String parent, String condition) {
    return """
        {"deserved":{"cpu":"10"},"allocated":{"cpu":"12"},"guarantee":{"cpu":"8","nvidia.com/gpu":"1"},
         "overQuota":{"cpu":"4"},"pending":0,"inqueue":0,"running":2,"overused":true,"parent":"%s",
         "conditions":[%s]}"""
        .formatted(parent, condition);
  }

  private static String invalid(String message, String time) {
    return """
        {"type":"TreeValid","status":"False","reason":"InvalidQueueTree","message":"%s","lastTransitionTime":"%s"}"""
        .formatted(message, time);
  }

  @Test
  void writesOncePerChange() {
    QueueStatusWriter.Report first = write(SUMMARY, observed("11", null), NOW);

    assertThat(first.written()).isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withHeader("Content-Type", equalTo("application/merge-patch+json"))
            .withRequestBody(
                equalToJson(
                    "{\"metadata\":{\"resourceVersion\":\"11\"},\"status\":" + STATUS + "}")));

    // The informer has not shown the write yet: nothing again.
    assertThat(write(SUMMARY, observed("11", null), NOW).unchanged()).isEqualTo(1);
    // It has: nothing again either, however many cycles pass.
    for (int cycle = 0; cycle < 5; cycle++) {
      assertThat(write(SUMMARY, observed("12", STATUS), NOW.plusSeconds(cycle)).written()).isZero();
    }
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));

    // A change: one job less pending, and the GPUs given back.
    QueueSummary changed =
        new QueueSummary(
            "research",
            SUMMARY.deserved(),
            Resource.of("cpu", "6500m", "memory", "12Gi"),
            0,
            2,
            3,
            false,
            2);
    assertThat(write(changed, observed("12", STATUS), NOW.plusSeconds(60)).written()).isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    """
            {"metadata":{"resourceVersion":"12"},"status":{"deserved":{"cpu":"10","memory":"40Gi"},
             "allocated":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":null},
             "guarantee":{},"overQuota":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":null},
             "pending":0,"inqueue":2,"running":3,"overused":false,"parent":null,%s}}"""
                        .formatted(VALID))));
    assertThat(eventsSent()).as("a valid tree announces nothing").isZero();
  }

  /**
   * An idle queue's counts are all 0: it is written once all the same, so that kubectl shows 0, not
   * nothing.
   */
  @Test
  void anIdleQueueIsWrittenOnceToo() {
    QueueSummary idle =
        new QueueSummary("research", Resource.EMPTY, Resource.EMPTY, 0, 0, 0, false, 0);

    assertThat(write(idle, observed("11", null), NOW).written()).isEqualTo(1);
    String written =
        """
        {"deserved":{},"allocated":{},"guarantee":{},"overQuota":{},
         "pending":0,"inqueue":0,"running":0,"overused":false,"parent":null,%s}"""
            .formatted(VALID);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    "{\"metadata\":{\"resourceVersion\":\"11\"},\"status\":" + written + "}")));
    assertThat(write(idle, observed("12", written), NOW).written()).isZero();
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  /** A Queue written before the tree existed has no condition, parent or guarantee yet. */
  @Test
  void aStatusWrittenBeforeTheTreeGetsTheNewFieldsOnce() {
    String old =
        """
        {"deserved":{"cpu":"10","memory":"40Gi"},"allocated":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":"2"},
         "pending":1,"inqueue":2,"running":3,"overused":false}""";

    assertThat(write(SUMMARY, observed("11", old), NOW).written()).isEqualTo(1);
    assertThat(write(SUMMARY, observed("12", STATUS), NOW).written()).isZero();
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aQueueThatIsNotCachedIsNotWritten() {
    QueueStatusWriter.Report report = writer.write(Map.of("research", SUMMARY), Map.of(), NOW);

    assertThat(report.written()).isZero();
    apiServer.verify(0, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aStatusEditedBySomeoneElseIsWrittenBack() {
    write(SUMMARY, observed("11", null), NOW);
    String edited = STATUS.replace("\"running\":3", "\"running\":99");

    assertThat(write(SUMMARY, observed("13", edited), NOW).written()).isEqualTo(1);
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void theTreeFieldsAreWrittenAndAParentThatLeftIsRemoved() {
    write(inTree("games", null), observed("11", null), NOW);

    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    """
            {"metadata":{"resourceVersion":"11"},"status":%s}"""
                        .formatted(storedInTree("games", VALID_CONDITION)))));

    QueueSummary topLevel =
        new QueueSummary(
            "research",
            Resource.of("cpu", "10"),
            Resource.of("cpu", "12"),
            0,
            0,
            2,
            true,
            0,
            null,
            Resource.EMPTY,
            Resource.of("cpu", "12"),
            null);
    write(topLevel, observed("12", storedInTree("games", VALID_CONDITION)), NOW);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    """
            {"metadata":{"resourceVersion":"12"},"status":{"deserved":{"cpu":"10"},"allocated":{"cpu":"12"},
             "guarantee":{"cpu":null,"nvidia.com/gpu":null},"overQuota":{"cpu":"12"},
             "pending":0,"inqueue":0,"running":2,"overused":true,"parent":null,%s}}"""
                        .formatted(VALID))));
  }

  @Test
  void aTreeProblemIsTheConditionAndOneEventUntilItChanges() {
    String problem = "parent games does not exist";
    QueueSummary invalid = inTree("games", problem);

    assertThat(write(invalid, observed("11", null), NOW).written()).isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.conditions",
                    equalToJson("[" + invalid(problem, "2026-11-27T12:00:00Z") + "]"))));
    assertThat(eventsSent()).isEqualTo(1);
    apiServer.verify(
        postRequestedFor(urlEqualTo(EVENTS))
            .withRequestBody(matchingJsonPath("$.reason", equalTo("InvalidQueueTree")))
            .withRequestBody(matchingJsonPath("$.type", equalTo("Warning")))
            .withRequestBody(matchingJsonPath("$.message", equalTo(problem)))
            .withRequestBody(matchingJsonPath("$.involvedObject.kind", equalTo("Queue")))
            .withRequestBody(matchingJsonPath("$.involvedObject.name", equalTo("research")))
            .withRequestBody(matchingJsonPath("$.involvedObject.uid", equalTo("uid-research"))));

    // Before and after the informer shows it, cycle after cycle: neither a write nor an Event.
    write(invalid, observed("11", null), NOW.plusSeconds(1));
    String stored = storedInTree("games", invalid(problem, "2026-11-27T12:00:00Z"));
    for (int cycle = 2; cycle < 8; cycle++) {
      assertThat(write(invalid, observed("12", stored), NOW.plusSeconds(cycle)).written()).isZero();
    }
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
    assertThat(eventsSent()).isEqualTo(1);

    // Another problem: written, and announced once more; the condition did not turn, so its time
    // stays.
    String other = "a cycle: research -> games -> research";
    assertThat(write(inTree("games", other), observed("12", stored), NOW.plusSeconds(60)).written())
        .isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.conditions",
                    equalToJson("[" + invalid(other, "2026-11-27T12:00:00Z") + "]"))));
    assertThat(eventsSent()).isEqualTo(2);

    // Fixed: True from now, and nothing to announce.
    String storedOther = storedInTree("games", invalid(other, "2026-11-27T12:00:00Z"));
    write(inTree("games", null), observed("13", storedOther), NOW.plusSeconds(120));
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.conditions",
                    equalToJson(
                        "[{\"type\":\"TreeValid\",\"status\":\"True\",\"lastTransitionTime\":\"2026-11-27T12:02:00Z\"}]"))));
    assertThat(eventsSent()).isEqualTo(2);
  }

  /**
   * The Event follows the write: a write the API server refused, or never sent, announces nothing.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"conflict, 409, true", "refused, 422, true", "fenced, 200, false"})
  void aTreeProblemWhoseWriteDidNotApplyIsNotAnnouncedUntilItDoes(
      String name, int httpStatus, boolean leads) {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(httpStatus)
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"kind\":\"Status\",\"code\":" + httpStatus + "}")));
    leading.set(leads);
    QueueSummary invalid = inTree("games", "parent games does not exist");

    QueueStatusWriter.Report refused = write(invalid, observed("11", null), NOW);

    assertThat(refused.written()).isZero();
    leading.set(true);
    assertThat(eventsSent()).isZero();
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"metadata\":{\"name\":\"research\",\"resourceVersion\":\"12\"}}")));
    assertThat(write(invalid, observed("11", null), NOW.plusSeconds(1)).written()).isEqualTo(1);
    assertThat(eventsSent()).isEqualTo(1);
  }

  /** A new leader finds the problem stored already: it writes nothing and announces nothing. */
  @Test
  void aProblemAlreadyStoredIsNotAnnouncedAgainByANewWriter() {
    String problem = "parent games does not exist";
    String stored = storedInTree("games", invalid(problem, "2026-11-27T11:00:00Z"));

    assertThat(write(inTree("games", problem), observed("12", stored), NOW).written()).isZero();
    assertThat(eventsSent()).isZero();
    apiServer.verify(0, patchRequestedFor(urlEqualTo(PATH)));
  }

  @ParameterizedTest(name = "stored {0}, desired problem [{1}] -> {2}")
  @CsvSource(
      nullValues = "null",
      delimiter = '|',
      value = {
        // No condition stored: from now.
        "null|null|2026-11-27T12:00:00Z",
        // Same status: its time stays, whether or not the message changed.
        "True@2026-11-27T10:00:00Z|null|2026-11-27T10:00:00Z",
        "False@2026-11-27T10:00:00Z|a cycle|2026-11-27T10:00:00Z",
        // Turned: from now.
        "True@2026-11-27T10:00:00Z|a cycle|2026-11-27T12:00:00Z",
        "False@2026-11-27T10:00:00Z|null|2026-11-27T12:00:00Z",
        // A stored time that cannot be read: from now.
        "True@yesterday|null|2026-11-27T12:00:00Z"
      })
  void theConditionsTimeMovesOnlyWhenItsStatusTurns(
      String stored, String desiredProblem, String expected) {
    JsonObject status = new JsonObject();
    if (stored != null) {
      String[] parts = stored.split("@");
      status =
          JsonParser.parseString(
                  "{\"conditions\":[{\"type\":\"TreeValid\",\"status\":\"%s\",\"message\":\"old\",\"lastTransitionTime\":\"%s\"}]}"
                      .formatted(parts[0], parts[1]))
              .getAsJsonObject();
    }
    QueueStatusWriter.View desired = QueueStatusWriter.View.of(inTree("games", desiredProblem));

    assertThat(QueueStatusWriter.transitionTime(desired, status, NOW))
        .isEqualTo(Instant.parse(expected));
  }
}
