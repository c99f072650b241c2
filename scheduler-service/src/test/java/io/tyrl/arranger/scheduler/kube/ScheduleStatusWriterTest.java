package io.tyrl.arranger.scheduler.kube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The write path against a fake API server: assume, write, forget; never re-derive on a conflict. */
class ScheduleStatusWriterTest {

  private static final String PATH = "/apis/arranger.tyrl.io/v1alpha1/namespaces/rl/tyjobs/pong/status";
  private static final String KEY = "rl/pong";
  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final JSON JSON = new JSON();
  private static final JobDecision PLACED = new JobDecision(ScheduleState.SCHEDULED_SUCCEED,
      Map.of("pong-learner", "n1", "pong-actor-0", "n2"), null, "", null);

  private final AtomicBoolean leading = new AtomicBoolean(true);
  private final AssumedStatuses assumed = new AssumedStatuses(Duration.ofSeconds(30));
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private WireMockServer apiServer;
  private ApiClient client;
  private StatusPatcher patcher;
  private ScheduleStatusWriter writer;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    apiServer.stubFor(post(urlMatching("/api/v1/namespaces/rl/events")).willReturn(aResponse().withStatus(201)
        .withHeader("Content-Type", "application/json")
        .withBody("{\"metadata\": {\"name\": \"pong.1\", \"namespace\": \"rl\"}, \"involvedObject\": {}}")));
    client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    patcher = new StatusPatcher(client, new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 3),
        leading::get, Duration.ofSeconds(5));
    writer = new ScheduleStatusWriter(patcher, client, threads, assumed, leading::get);
  }

  @AfterEach
  void stop() {
    apiServer.stop();
    threads.shutdownNow();
  }

  @Test
  void aWrittenDecisionIsAssumedSoTheNextCycleNeitherWritesItAgainNorLosesIt() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    V1alpha1TYJob cached = job("7");

    ScheduleStatusWriter.WriteReport first = writer.write(Map.of(KEY, cached), Map.of(KEY, PLACED), Map.of(),
        (namespace, pod) -> Optional.empty(), NOW);

    assertThat(first.written()).isEqualTo(1);
    assertThat(first.events()).as("one Scheduled event").isEqualTo(1);
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH))
        .withRequestBody(matchingJsonPath("$.metadata.resourceVersion", com.github.tomakehurst.wiremock.client.WireMock.equalTo("7")))
        .withRequestBody(matchingJsonPath("$.status.allocations.pong-actor-0", com.github.tomakehurst.wiremock.client.WireMock.equalTo("n2"))));

    // The informer has not caught up: the snapshot shows the decision, and the same decision writes nothing.
    V1alpha1TYJob seen = assumed.view(KEY, cached, NOW.plusSeconds(1));
    assertThat(seen.getStatus().getAllocations()).isEqualTo(PLACED.allocations());
    ScheduleStatusWriter.WriteReport second = writer.write(Map.of(KEY, seen), Map.of(KEY, PLACED), Map.of(),
        (namespace, pod) -> Optional.empty(), NOW.plusSeconds(1));
    assertThat(second.written()).isZero();
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aConflictDropsTheDecisionWithoutReadingOrRetrying() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(409)
        .withBody("{\"message\":\"the object has been modified\"}")));
    V1alpha1TYJob cached = job("7");

    ScheduleStatusWriter.WriteReport report = writer.write(Map.of(KEY, cached), Map.of(KEY, PLACED), Map.of(),
        (namespace, pod) -> Optional.empty(), NOW);

    assertThat(report.conflicts()).isEqualTo(1);
    assertThat(report.written()).isZero();
    assertThat(assumed.view(KEY, cached, NOW)).as("forgotten: the job is as the informer says").isSameAs(cached);
    assertThat(apiServer.findAll(anyRequestedFor(anyUrl()))).singleElement()
        .satisfies(request -> assertThat(request.getMethod().getName()).isEqualTo("PATCH"));
  }

  @Test
  void aFailedWriteIsForgotten() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
    V1alpha1TYJob cached = job("7");

    ScheduleStatusWriter.WriteReport report = writer.write(Map.of(KEY, cached), Map.of(KEY, PLACED), Map.of(),
        (namespace, pod) -> Optional.empty(), NOW);

    assertThat(report.failed()).isEqualTo(1);
    assertThat(assumed.size()).isZero();
    apiServer.verify(3, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aFencedReplicaWritesNothingAndAssumesNothing() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    leading.set(false);

    ScheduleStatusWriter.WriteReport report = writer.write(Map.of(KEY, job("7")), Map.of(KEY, PLACED), Map.of(),
        (namespace, pod) -> Optional.empty(), NOW);

    assertThat(report.fenced()).isEqualTo(1);
    assertThat(assumed.size()).isZero();
    assertThat(apiServer.findAll(anyRequestedFor(anyUrl()))).isEmpty();
  }

  @Test
  void victimsAreRecordedWithTheUidsOfThePodsChosen() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    JobDecision waiting = new JobDecision(ScheduleState.UNSCHEDULED, Map.of(),
        io.tyrl.arranger.scheduler.api.ReasonCode.WAITING_FOR_VICTIMS, "waiting", null);
    Victim victim = new Victim("rl", "low", List.of("low-actor-0", "low-actor-1"), false, "preempted", ReasonCode.PREEMPTED);

    writer.write(Map.of(KEY, job("7")), Map.of(KEY, waiting), Map.of(KEY, List.of(victim)),
        (namespace, pod) -> pod.equals("low-actor-0") ? Optional.of("uid-a0") : Optional.empty(), NOW);

    apiServer.verify(patchRequestedFor(urlEqualTo(PATH))
        .withRequestBody(matchingJsonPath("$.status.victims[0].pods[1]", com.github.tomakehurst.wiremock.client.WireMock.equalTo("low-actor-1")))
        .withRequestBody(matchingJsonPath("$.status.victims[0].podUIDs[0]", com.github.tomakehurst.wiremock.client.WireMock.equalTo("uid-a0")))
        .withRequestBody(matchingJsonPath("$.status.victims[0].podUIDs.length()", com.github.tomakehurst.wiremock.client.WireMock.equalTo("1"))));
  }

  /**
   * The Event of a waiting job carries its status's words: written with them, again with new words
   * when the message changes, and — while nothing changes — repeated only every repeat interval,
   * counted on the same Event.
   */
  @Test
  void aWaitingJobsEventCarriesItsStatusWordsAndRepeatsOnlyEveryInterval() {
    apiServer.stubFor(patch(urlEqualTo(PATH)).willReturn(patched("8")));
    apiServer.stubFor(patch(urlMatching("/api/v1/namespaces/rl/events/.*")).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "application/json").withBody("{\"metadata\": {\"name\": \"pong.1\"}}")));
    java.util.concurrent.atomic.AtomicReference<Instant> clock = new java.util.concurrent.atomic.AtomicReference<>(NOW);
    EventRecorder recorder = new EventRecorder(client, "arranger-scheduler", "test", leading::get,
        EventRecorderProperties.defaults(), new SimpleMeterRegistry(), new java.time.Clock() {
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
    ScheduleStatusWriter repeating = new ScheduleStatusWriter(patcher, client, threads, assumed, recorder,
        Duration.ofMinutes(1));
    JobDecision waiting = new JobDecision(ScheduleState.UNSCHEDULED, Map.of(), ReasonCode.UNSCHEDULABLE,
        "0/4 nodes fit learner: 4 Insufficient cpu", NOW);
    try {
      repeating.write(Map.of(KEY, job("7")), Map.of(KEY, waiting), Map.of(), (namespace, pod) -> Optional.empty(), NOW);
      V1alpha1TYJob written = assumed.view(KEY, job("7"), NOW);
      for (int second = 1; second < 60; second += 10) {
        clock.set(NOW.plusSeconds(second));
        repeating.write(Map.of(KEY, written), Map.of(KEY, waiting), Map.of(), (namespace, pod) -> Optional.empty(),
            NOW.plusSeconds(second));
      }
      clock.set(NOW.plusSeconds(61));
      ScheduleStatusWriter.WriteReport repeat = repeating.write(Map.of(KEY, written), Map.of(KEY, waiting), Map.of(),
          (namespace, pod) -> Optional.empty(), NOW.plusSeconds(61));
      assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();

      assertThat(repeat.events()).isEqualTo(1);
      apiServer.verify(1, postRequestedFor(urlMatching("/api/v1/namespaces/rl/events"))
          .withRequestBody(matchingJsonPath("$.reason", equalTo("Unschedulable")))
          .withRequestBody(matchingJsonPath("$.message", equalTo(waiting.message()))));
      apiServer.verify(1, patchRequestedFor(urlMatching("/api/v1/namespaces/rl/events/pong\\..*"))
          .withRequestBody(matchingJsonPath("$.count", equalTo("2"))));
      apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));

      // New words in the status: an Event with the same words.
      JobDecision moved = new JobDecision(ScheduleState.UNSCHEDULED, Map.of(), ReasonCode.UNSCHEDULABLE,
          "0/4 nodes fit learner: 3 Insufficient cpu, 1 untolerated taint gpu", NOW);
      repeating.write(Map.of(KEY, job("8")), Map.of(KEY, moved), Map.of(), (namespace, pod) -> Optional.empty(),
          NOW.plusSeconds(62));
      assertThat(recorder.awaitIdle(Duration.ofSeconds(5))).isTrue();
      apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH))
          .withRequestBody(matchingJsonPath("$.status.scheduling.message", equalTo(moved.message()))));
      apiServer.verify(1, postRequestedFor(urlMatching("/api/v1/namespaces/rl/events"))
          .withRequestBody(matchingJsonPath("$.message", equalTo(moved.message()))));
    } finally {
      recorder.close();
    }
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder patched(String version) {
    return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody("""
        {"apiVersion":"arranger.tyrl.io/v1alpha1","kind":"TYJob",
         "metadata":{"name":"pong","namespace":"rl","resourceVersion":"%s"}}""".formatted(version));
  }

  private static V1alpha1TYJob job(String resourceVersion) {
    return JSON.deserialize("""
        {"metadata": {"namespace": "rl", "name": "pong", "uid": "u1", "resourceVersion": "%s"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                  "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]},
         "status": {"stage": "Pending"}}""".formatted(resourceVersion), V1alpha1TYJob.class);
  }
}
