package io.tyrl.arranger.scheduler.kube;

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
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.EventRecorderProperties;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The write path against a fake API server: assume, write, forget; never re-derive on a conflict.
 */
class ScheduleStatusWriterTest {

  private static final String PATH =
      "/apis/arranger.tyrl.io/v1alpha1/namespaces/rl/tyjobs/pong/status";
  private static final String KEY = "rl/pong";
  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final JSON JSON = new JSON();
  private static final JobDecision PLACED =
      new JobDecision(
          ScheduleState.SCHEDULED_SUCCEED,
          Map.of("pong-learner", "n1", "pong-actor-0", "n2"),
          null,
          "",
          null);

  private final AtomicBoolean leading = new AtomicBoolean(true);
  private final AssumedStatuses assumed = new AssumedStatuses(Duration.ofSeconds(30));
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final Map<ScheduleStatusWriter.Kind, Integer> outcomes = new ConcurrentHashMap<>();
  private final AtomicInteger eventsRecorded = new AtomicInteger();
  private WireMockServer apiServer;
  private ApiClient client;
  private StatusPatcher patcher;
  private ScheduleStatusWriter writer;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    apiServer.stubFor(
        post(urlMatching("/api/v1/namespaces/rl/events"))
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"metadata\": {\"name\": \"pong.1\", \"namespace\": \"rl\"}, \"involvedObject\": {}}")));
    client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    patcher =
        new StatusPatcher(
            client,
            new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 3),
            leading::get,
            Duration.ofSeconds(5));
    writer =
        new ScheduleStatusWriter(patcher, client, threads, assumed, leading::get, this::finished);
  }

  private void finished(ScheduleStatusWriter.Kind kind, int events) {
    outcomes.merge(kind, 1, Integer::sum);
    eventsRecorded.addAndGet(events);
  }

  private int outcomes(ScheduleStatusWriter.Kind kind) {
    return outcomes.getOrDefault(kind, 0);
  }

  /** Hands the decisions over and waits until their writes have been answered. */
  private ScheduleStatusWriter.Submission writeAndAwait(
      ScheduleStatusWriter statusWriter,
      V1alpha1TYJob job,
      JobDecision decision,
      Map<String, List<Victim>> victims,
      ScheduleStatusChange.PodUids uids,
      Instant now)
      throws InterruptedException {
    ScheduleStatusWriter.Submission submission =
        statusWriter.write(Map.of(KEY, job), Map.of(KEY, decision), victims, uids, now);
    assertThat(statusWriter.awaitIdle(Duration.ofSeconds(10))).as("writes answered").isTrue();
    return submission;
  }

  @AfterEach
  void stop() {
    apiServer.stop();
    threads.shutdownNow();
  }

  @Test
  void aWrittenDecisionIsAssumedSoTheNextCycleNeitherWritesItAgainNorLosesIt() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    V1alpha1TYJob cached = job("7");

    ScheduleStatusWriter.Submission first =
        writeAndAwait(writer, cached, PLACED, Map.of(), (namespace, pod) -> Optional.empty(), NOW);

    assertThat(first.submitted()).isEqualTo(1);
    assertThat(outcomes(ScheduleStatusWriter.Kind.WRITTEN)).isEqualTo(1);
    assertThat(eventsRecorded)
        .as("placed at its first decision: no Event of the scheduler's")
        .hasValue(0);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                matchingJsonPath(
                    "$.metadata.resourceVersion",
                    com.github.tomakehurst.wiremock.client.WireMock.equalTo("7")))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.allocations.pong-actor-0",
                    com.github.tomakehurst.wiremock.client.WireMock.equalTo("n2"))));

    // The informer has not caught up: the snapshot shows the decision, and the same decision writes
    // nothing.
    V1alpha1TYJob seen = assumed.view(KEY, cached, NOW.plusSeconds(1));
    assertThat(seen.getStatus().getAllocations()).isEqualTo(PLACED.allocations());
    ScheduleStatusWriter.Submission second =
        writeAndAwait(
            writer,
            seen,
            PLACED,
            Map.of(),
            (namespace, pod) -> Optional.empty(),
            NOW.plusSeconds(1));
    assertThat(second.submitted()).isZero();
    assertThat(outcomes(ScheduleStatusWriter.Kind.WRITTEN)).isEqualTo(1);
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aConflictDropsTheDecisionWithoutReadingOrRetrying() throws Exception {
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(409)
                    .withBody("{\"message\":\"the object has been modified\"}")));
    V1alpha1TYJob cached = job("7");

    writeAndAwait(writer, cached, PLACED, Map.of(), (namespace, pod) -> Optional.empty(), NOW);

    assertThat(outcomes(ScheduleStatusWriter.Kind.CONFLICT)).isEqualTo(1);
    assertThat(outcomes(ScheduleStatusWriter.Kind.WRITTEN)).isZero();
    assertThat(assumed.view(KEY, cached, NOW))
        .as("forgotten: the job is as the informer says")
        .isSameAs(cached);
    assertThat(apiServer.findAll(anyRequestedFor(anyUrl())))
        .singleElement()
        .satisfies(request -> assertThat(request.getMethod().getName()).isEqualTo("PATCH"));
  }

  @Test
  void aFailedWriteIsForgotten() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
    V1alpha1TYJob cached = job("7");

    writeAndAwait(writer, cached, PLACED, Map.of(), (namespace, pod) -> Optional.empty(), NOW);

    assertThat(outcomes(ScheduleStatusWriter.Kind.FAILED)).isEqualTo(1);
    assertThat(assumed.size()).isZero();
    apiServer.verify(3, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aFencedReplicaWritesNothingAndAssumesNothing() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    leading.set(false);

    writeAndAwait(writer, job("7"), PLACED, Map.of(), (namespace, pod) -> Optional.empty(), NOW);

    assertThat(outcomes(ScheduleStatusWriter.Kind.FENCED)).isEqualTo(1);
    assertThat(assumed.size()).isZero();
    assertThat(apiServer.findAll(anyRequestedFor(anyUrl()))).isEmpty();
  }

  @Test
  void victimsAreRecordedWithTheUidsOfThePodsChosen() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    JobDecision waiting =
        new JobDecision(
            ScheduleState.UNSCHEDULED,
            Map.of(),
            io.tyrl.arranger.scheduler.api.ReasonCode.WAITING_FOR_VICTIMS,
            "waiting",
            null);
    Victim victim =
        new Victim(
            "rl",
            "low",
            List.of("low-actor-0", "low-actor-1"),
            false,
            "preempted",
            ReasonCode.PREEMPTED);

    writeAndAwait(
        writer,
        job("7"),
        waiting,
        Map.of(KEY, List.of(victim)),
        (namespace, pod) -> pod.equals("low-actor-0") ? Optional.of("uid-a0") : Optional.empty(),
        NOW);

    apiServer.verify(
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.victims[0].pods[1]",
                    com.github.tomakehurst.wiremock.client.WireMock.equalTo("low-actor-1")))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.victims[0].podUIDs[0]",
                    com.github.tomakehurst.wiremock.client.WireMock.equalTo("uid-a0")))
            .withRequestBody(
                matchingJsonPath(
                    "$.status.victims[0].podUIDs.length()",
                    com.github.tomakehurst.wiremock.client.WireMock.equalTo("1"))));
  }

  /**
   * The Event of a waiting job carries its status's words: written with them, again with new words
   * when the message changes, and — while nothing changes — repeated only every repeat interval,
   * counted on the same Event.
   */
  @Test
  void aWaitingJobsEventCarriesItsStatusWordsAndRepeatsOnlyEveryInterval() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    apiServer.stubFor(
        patch(urlMatching("/api/v1/namespaces/rl/events/.*"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"metadata\": {\"name\": \"pong.1\"}}")));
    java.util.concurrent.atomic.AtomicReference<Instant> clock =
        new java.util.concurrent.atomic.AtomicReference<>(NOW);
    EventRecorder recorder =
        new EventRecorder(
            client,
            "arranger-scheduler",
            "test",
            leading::get,
            EventRecorderProperties.defaults(),
            new SimpleMeterRegistry(),
            new java.time.Clock() {
              @Override
              public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
              }

              @Override
              public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
              }

              @Override
              public Instant instant() {
                return clock.get();
              }
            });
    ScheduleStatusWriter repeating =
        new ScheduleStatusWriter(
            patcher,
            client,
            threads,
            assumed,
            recorder,
            Duration.ofMinutes(1),
            ScheduleStatusWriter.DEFAULT_BACKLOG,
            this::finished);
    JobDecision waiting =
        new JobDecision(
            ScheduleState.UNSCHEDULED,
            Map.of(),
            ReasonCode.UNSCHEDULABLE,
            "0/4 nodes fit learner: 4 Insufficient cpu",
            NOW);
    try {
      writeAndAwait(
          repeating, job("7"), waiting, Map.of(), (namespace, pod) -> Optional.empty(), NOW);
      V1alpha1TYJob written = assumed.view(KEY, job("7"), NOW);
      for (int second = 1; second < 60; second += 10) {
        clock.set(NOW.plusSeconds(second));
        repeating.write(
            Map.of(KEY, written),
            Map.of(KEY, waiting),
            Map.of(),
            (namespace, pod) -> Optional.empty(),
            NOW.plusSeconds(second));
      }
      clock.set(NOW.plusSeconds(61));
      ScheduleStatusWriter.Submission repeat =
          repeating.write(
              Map.of(KEY, written),
              Map.of(KEY, waiting),
              Map.of(),
              (namespace, pod) -> Optional.empty(),
              NOW.plusSeconds(61));
      assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

      assertThat(repeat.repeatedEvents()).isEqualTo(1);
      apiServer.verify(
          1,
          postRequestedFor(urlMatching("/api/v1/namespaces/rl/events"))
              .withRequestBody(matchingJsonPath("$.reason", equalTo("Unschedulable")))
              .withRequestBody(matchingJsonPath("$.message", equalTo(waiting.message()))));
      apiServer.verify(
          1,
          patchRequestedFor(urlMatching("/api/v1/namespaces/rl/events/pong\\..*"))
              .withRequestBody(matchingJsonPath("$.count", equalTo("2"))));
      apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));

      // New words in the status: an Event with the same words.
      JobDecision moved =
          new JobDecision(
              ScheduleState.UNSCHEDULED,
              Map.of(),
              ReasonCode.UNSCHEDULABLE,
              "0/4 nodes fit learner: 3 Insufficient cpu, 1 untolerated taint gpu",
              NOW);
      writeAndAwait(
          repeating,
          job("8"),
          moved,
          Map.of(),
          (namespace, pod) -> Optional.empty(),
          NOW.plusSeconds(62));
      assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();
      apiServer.verify(
          1,
          patchRequestedFor(urlEqualTo(PATH))
              .withRequestBody(
                  matchingJsonPath("$.status.scheduling.message", equalTo(moved.message()))));
      apiServer.verify(
          1,
          postRequestedFor(urlMatching("/api/v1/namespaces/rl/events"))
              .withRequestBody(matchingJsonPath("$.message", equalTo(moved.message()))));
    } finally {
      recorder.close();
    }
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder patched(
      String version) {
    return aResponse()
        .withStatus(200)
        .withHeader("Content-Type", "application/json")
        .withBody(
            """
        {"apiVersion":"arranger.tyrl.io/v1alpha1","kind":"TYJob",
         "metadata":{"name":"pong","namespace":"rl","resourceVersion":"%s"}}"""
                .formatted(version));
  }

  @Test
  void theCycleDoesNotWaitForTheApiServerAndAJobWhoseWriteIsInFlightIsNotWrittenAgain()
      throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8").withFixedDelay(1500)));
    V1alpha1TYJob cached = job("7");

    long start = System.nanoTime();
    ScheduleStatusWriter.Submission first =
        writer.write(
            Map.of(KEY, cached),
            Map.of(KEY, PLACED),
            Map.of(),
            (namespace, pod) -> Optional.empty(),
            NOW);
    long handedOverMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(first.submitted()).isEqualTo(1);
    assertThat(writer.inFlight())
        .as("still unanswered when write returned (%d ms)", handedOverMillis)
        .isEqualTo(1);
    assertThat(outcomes).as("nothing answered yet").isEmpty();
    // The next cycle sees the decision, and even a different one for the job waits for the write in
    // flight.
    assertThat(assumed.view(KEY, cached, NOW).getStatus().getAllocations())
        .isEqualTo(PLACED.allocations());
    JobDecision other =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            Map.of("pong-learner", "n3", "pong-actor-0", "n3"),
            null,
            "",
            null);
    assertThat(
            writer
                .write(
                    Map.of(KEY, cached),
                    Map.of(KEY, other),
                    Map.of(),
                    (namespace, pod) -> Optional.empty(),
                    NOW)
                .submitted())
        .isZero();

    assertThat(writer.awaitIdle(Duration.ofSeconds(10))).isTrue();
    assertThat(outcomes(ScheduleStatusWriter.Kind.WRITTEN)).isEqualTo(1);
    assertThat(writer.inFlight()).isZero();
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aFullBacklogDefersTheRestOfTheCycleUnassumed() throws Exception {
    apiServer.stubFor(
        patch(urlMatching("/apis/arranger.tyrl.io/v1alpha1/namespaces/rl/tyjobs/.*/status"))
            .willReturn(patched("8").withFixedDelay(500)));
    ScheduleStatusWriter narrow =
        new ScheduleStatusWriter(
            patcher,
            client,
            threads,
            assumed,
            EventRecorder.standalone(
                client, "arranger-scheduler", "test", leading::get, java.time.Clock.systemUTC()),
            Duration.ofMinutes(5),
            1,
            this::finished);
    V1alpha1TYJob other = job("9");
    other.getMetadata().setName("ping");
    JobDecision otherPlaced =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            Map.of("ping-learner", "n1", "ping-actor-0", "n2"),
            null,
            "",
            null);
    Map<String, JobDecision> decisions = new java.util.LinkedHashMap<>();
    decisions.put(KEY, PLACED);
    decisions.put("rl/ping", otherPlaced);

    ScheduleStatusWriter.Submission submission =
        narrow.write(
            Map.of(KEY, job("7"), "rl/ping", other),
            decisions,
            Map.of(),
            (namespace, pod) -> Optional.empty(),
            NOW);

    assertThat(submission.submitted()).isEqualTo(1);
    assertThat(submission.deferred()).isEqualTo(1);
    assertThat(assumed.size()).as("the deferred decision is not assumed").isEqualTo(1);
    assertThat(narrow.awaitIdle(Duration.ofSeconds(10))).isTrue();
    apiServer.verify(1, patchRequestedFor(urlMatching(".*/tyjobs/.*/status")));
  }

  @Test
  void aJobPlacedAfterWaitingIsToldSoWithAScheduledEvent() throws Exception {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    V1alpha1TYJob waited = job("7");
    waited
        .getStatus()
        .setScheduling(
            new io.tyrl.arranger.model.V1alpha1TYJobStatusScheduling()
                .reason("Unschedulable")
                .message("0/4 nodes fit learner"));

    writeAndAwait(writer, waited, PLACED, Map.of(), (namespace, pod) -> Optional.empty(), NOW);

    assertThat(eventsRecorded).hasValue(1);
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                apiServer.verify(
                    1,
                    postRequestedFor(urlMatching("/api/v1/namespaces/rl/events"))
                        .withRequestBody(matchingJsonPath("$.reason", equalTo("Scheduled")))
                        .withRequestBody(
                            matchingJsonPath(
                                "$.message",
                                equalTo(
                                    "ScheduledSucceed after waiting (Unschedulable): 2 pods placed")))));
  }

  private static V1alpha1TYJob job(String resourceVersion) {
    return JSON.deserialize(
        """
        {"metadata": {"namespace": "rl", "name": "pong", "uid": "u1", "resourceVersion": "%s"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                  "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]},
         "status": {"stage": "Pending"}}"""
            .formatted(resourceVersion),
        V1alpha1TYJob.class);
  }
}
