package io.tyrl.arranger.scheduler.kube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A queue's past usage goes to its status at a bounded rate, fenced, and comes back from it: what a
 * new leader reads is what the old one wrote.
 */
class QueueUsageKeeperTest {

  private static final String PATH = "/apis/arranger.tyrl.io/v1alpha1/queues/research/status";
  private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
  private static final FairnessConfiguration FAIRNESS = FairnessConfiguration.DEFAULT;

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final AtomicBoolean leading = new AtomicBoolean(true);
  private WireMockServer apiServer;
  private StatusPatcher patcher;

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
    ApiClient client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    patcher =
        new StatusPatcher(
            client,
            new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 3),
            leading::get,
            Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    apiServer.stop();
    threads.shutdownNow();
  }

  /**
   * One 16-GPU node; queue research holds {@code gpus} GPUs with one job of namespace alice (none
   * for 0).
   */
  private static Snapshot holding(int gpus) {
    List<TaskInfo> tasks = new ArrayList<>();
    tasks.add(
        TaskInfo.leader("sweep", "learner", Resource.of(Resource.GPU, "1", "cpu", "1"))
            .withStatus(TaskStatus.ALLOCATED, "n0"));
    for (int i = 0; i < gpus - 1; i++) {
      tasks.add(
          TaskInfo.worker("sweep", "actor", i, Resource.of(Resource.GPU, "1", "cpu", "1"))
              .withStatus(TaskStatus.ALLOCATED, "n0"));
    }
    JobInfo job =
        JobInfo.builder("alice", "sweep")
            .uid("uid-sweep")
            .creationTime(T0)
            .queue("research")
            .tasks(tasks)
            .build();
    return new Snapshot(
        List.of(
            new NodeInfo(
                "n0",
                Map.of(),
                List.of(),
                Resource.of(Resource.GPU, "16", "cpu", "64"),
                null,
                null,
                true,
                false,
                0)),
        gpus == 0 ? List.of() : List.of(job),
        List.of(QueueInfo.of("research", 1)));
  }

  private static Map<String, ClusterInformers.ObservedQueue> observed(
      JsonObject status, String reset) {
    return Map.of(
        "research", new ClusterInformers.ObservedQueue("research", "uid", "1", status, reset));
  }

  private QueueUsageKeeper keeper(Duration interval) {
    return new QueueUsageKeeper(patcher, threads, interval);
  }

  /** One cycle of the keeper: usage brought to {@code now}, then written if due. */
  private Map<String, QueueUsage> cycle(
      QueueUsageKeeper keeper, Snapshot snapshot, JsonObject stored, String reset, Instant now) {
    Snapshot withUsage = keeper.withUsage(snapshot, observed(stored, reset), now, FAIRNESS);
    keeper.write(observed(stored, reset), now);
    return withUsage.usage();
  }

  private List<LoggedRequest> patches(int expected) {
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> apiServer.findAll(patchRequestedFor(urlEqualTo(PATH))).size() >= expected);
    return apiServer.findAll(patchRequestedFor(urlEqualTo(PATH)));
  }

  private static JsonObject body(LoggedRequest request) {
    return JsonParser.parseString(request.getBodyAsString()).getAsJsonObject();
  }

  @Test
  void usageIsWrittenAtMostOncePerIntervalAndOnlyWhenItMovedMoreThanTheThreshold() {
    QueueUsageKeeper keeper = keeper(Duration.ofSeconds(30));
    Snapshot eight = holding(8);
    cycle(keeper, eight, null, null, T0);
    // Nothing held for any time yet: nothing to write.
    assertThat(keeper.write(observed(null, null), T0)).isZero();

    cycle(keeper, eight, null, null, T0.plusSeconds(10));
    assertThat(patches(1)).hasSize(1);
    // Within the interval: not again, though the usage doubled.
    cycle(keeper, eight, null, null, T0.plusSeconds(20));
    cycle(keeper, eight, null, null, T0.plusSeconds(39));
    assertThat(keeper.writeResults()).containsEntry("written", 1);
    // Past the interval and moved: written again.
    cycle(keeper, eight, null, null, T0.plusSeconds(41));
    assertThat(patches(2)).hasSize(2);
    await().until(() -> keeper.writeResults().getOrDefault("written", 0) == 2);
    // Then nothing held: decay alone moves the total far less than 1 % in a minute.
    Snapshot none = holding(0);
    for (int s = 42; s <= 200; s += 10) {
      cycle(keeper, none, null, null, T0.plusSeconds(s));
    }
    assertThat(keeper.writeResults()).containsEntry("written", 2);
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void whatIsWrittenIsReadBackByTheNextLeaderWhichGoesOnFromIt() {
    QueueUsageKeeper leader = keeper(Duration.ofSeconds(1));
    Snapshot eight = holding(8);
    cycle(leader, eight, null, null, T0);
    Map<String, QueueUsage> written = cycle(leader, eight, null, null, T0.plusSeconds(3600));
    JsonObject patch = body(patches(1).get(0));
    assertThat(patch.has("metadata")).as("usage is not guarded by a resourceVersion").isFalse();
    JsonObject stored = patch.getAsJsonObject("status");
    assertThat(stored.getAsJsonObject(QueueStatusFields.USAGE).get("summary").getAsString())
        .startsWith("nvidia.com/gpu ");

    QueueUsageKeeper next = keeper(Duration.ofSeconds(1));
    Map<String, QueueUsage> readBack =
        next.withUsage(eight, observed(stored, null), T0.plusSeconds(3600), FAIRNESS).usage();
    Map<String, QueueUsage> goneOn =
        next.withUsage(eight, observed(stored, null), T0.plusSeconds(7200), FAIRNESS).usage();

    double gpuSeconds = written.get("research").queue().total(Resource.GPU);
    assertThat(gpuSeconds).isCloseTo(8 * 3600, withinPercentage(2));
    assertThat(readBack.get("research").queue().total(Resource.GPU))
        .isCloseTo(gpuSeconds, withinPercentage(0.001));
    assertThat(readBack.get("research").namespace("alice").total(Resource.GPU))
        .isCloseTo(gpuSeconds, withinPercentage(0.001));
    assertThat(readBack.get("research").queue().asOf()).isEqualTo(T0.plusSeconds(3600));
    assertThat(goneOn.get("research").queue().total(Resource.GPU))
        .isCloseTo(2 * gpuSeconds, withinPercentage(2));
  }

  @Test
  void aReplicaThatMayNotWriteSendsNothing() {
    leading.set(false);
    QueueUsageKeeper keeper = keeper(Duration.ofSeconds(1));
    cycle(keeper, holding(8), null, null, T0);
    cycle(keeper, holding(8), null, null, T0.plusSeconds(60));

    await().until(() -> keeper.writeResults().getOrDefault("fenced", 0) == 1);
    apiServer.verify(0, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aNewResetAnnotationStartsTheHistoryAgainOnceAndIsRecorded() {
    QueueUsageKeeper keeper = keeper(Duration.ofSeconds(1));
    cycle(keeper, holding(8), null, null, T0);
    cycle(keeper, holding(8), null, null, T0.plusSeconds(60));
    JsonObject stored = body(patches(1).get(0)).getAsJsonObject("status");

    Map<String, QueueUsage> reset =
        cycle(keeper, holding(8), stored, "2026-11-27", T0.plusSeconds(120));
    assertThat(reset.get("research").queue().total()).isEmpty();
    JsonObject resetWritten = body(patches(2).get(1)).getAsJsonObject("status");
    assertThat(resetWritten.getAsJsonObject(QueueStatusFields.USAGE).get("reset").getAsString())
        .isEqualTo("2026-11-27");
    // The stored slots of before the reset are removed by the patch (arrays are replaced).
    assertThat(
            resetWritten
                .getAsJsonObject(QueueStatusFields.USAGE)
                .getAsJsonArray(QueueStatusFields.USAGE_SLOTS))
        .isEmpty();

    // A new leader that finds the reset recorded does not reset again.
    QueueUsageKeeper next = keeper(Duration.ofSeconds(1));
    JsonObject recorded = stored.deepCopy();
    recorded.getAsJsonObject(QueueStatusFields.USAGE).addProperty("reset", "2026-11-27");
    Map<String, QueueUsage> kept =
        next.withUsage(holding(8), observed(recorded, "2026-11-27"), T0.plusSeconds(180), FAIRNESS)
            .usage();
    assertThat(kept.get("research").queue().total(Resource.GPU)).isGreaterThan(400);
  }

  @Test
  void aNamespaceNoLongerKeptIsRemovedFromTheStatusByThePatch() {
    JsonObject stored =
        QueueUsageStatus.toJson(
            new QueueUsage(usage(100), Map.of("alice", usage(60), "bob", usage(40))),
            Map.of(Resource.GPU, 0.1),
            null);
    JsonObject desired =
        QueueUsageStatus.toJson(
            new QueueUsage(usage(100), Map.of("alice", usage(100))),
            Map.of(Resource.GPU, 0.1),
            null);

    JsonElement patch = QueueUsageStatus.mergePatch(stored, desired);

    JsonObject namespaces = patch.getAsJsonObject().getAsJsonObject("namespaces");
    assertThat(namespaces.get("bob").isJsonNull()).isTrue();
    assertThat(JsonMergePatch.apply(stored, patch)).isEqualTo(desired);
  }

  @Test
  void aStoredUsageThatCannotBeReadIsRefusedNamingTheField() {
    JsonObject status =
        JsonParser.parseString(
                """
                {"usage":{"asOf":"2026-11-27T12:00:00Z",
                          "slots":[{"start":"2026-11-27T11:00:00Z","resourceSeconds":{"nvidia.com/gpu":-3}}]}}""")
            .getAsJsonObject();

    assertThatThrownBy(() -> QueueUsageStatus.read(status))
        .hasMessageContaining("status.usage.slots[0].resourceSeconds.nvidia.com/gpu");
  }

  @Test
  void aQueueWithoutUsageInItsStatusHasNoHistory() throws Exception {
    assertThat(QueueUsageStatus.read(null).usage()).isEqualTo(QueueUsage.NONE);
    assertThat(QueueUsageStatus.read(JsonParser.parseString("{\"pending\":1}").getAsJsonObject()))
        .isEqualTo(QueueUsageStatus.Stored.NONE);
  }

  private static DecayedUsage usage(double gpuSeconds) {
    return new DecayedUsage(
        T0, List.of(new DecayedUsage.Slot(T0, new TreeMap<>(Map.of(Resource.GPU, gpuSeconds)))));
  }
}
