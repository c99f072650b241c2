package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.TYJobAnnotations;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.KubectlTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The queue tree's fields on the real API server: the CRD takes them (and refuses what the
 * scheduler could not read), the scheduler reads them and reads an old Queue as before, and its
 * status writer stores the new status fields and the {@code TreeValid} condition, with one {@code
 * InvalidQueueTree} Event per problem however many cycles write.
 */
@ExtendWith(KubeApiServerExtension.class)
class QueueTreeIT {

  private static final String TABLE_PATH = "/apis/arranger.tyrl.io/v1alpha1/queues/";

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private ApiClient client;
  private EventRecorder events;
  private QueueStatusWriter writer;

  @BeforeEach
  void start(ApiClient client) {
    this.client = client;
    events =
        EventRecorder.standalone(client, "arranger-scheduler", "it", () -> true, Clock.systemUTC());
    writer =
        new QueueStatusWriter(
            new StatusPatcher(
                client,
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(500), 5),
                () -> true,
                Duration.ofSeconds(10)),
            threads,
            events);
  }

  @AfterEach
  void stop() {
    events.close();
    threads.shutdownNow();
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private void createQueue(String name, Map<String, Object> spec) throws ApiException {
    Map<String, Object> queue = new HashMap<>();
    queue.put("apiVersion", ArrangerResources.API_VERSION);
    queue.put("kind", ArrangerResources.QUEUE_KIND);
    queue.put("metadata", Map.of("name", name));
    if (spec != null) {
      queue.put("spec", spec);
    }
    new CustomObjectsApi(client)
        .createClusterCustomObject(
            ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, queue)
        .execute();
  }

  private JsonObject stored(String name) throws ApiException {
    Object raw =
        new CustomObjectsApi(client)
            .getClusterCustomObject(
                ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, name)
            .execute();
    return client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
  }

  /** The Queue as the scheduler's informer would hand it over. */
  private ClusterInformers.ObservedQueue observed(String name) throws ApiException {
    JsonObject object = stored(name);
    JsonObject metadata = object.getAsJsonObject("metadata");
    JsonElement status = object.get("status");
    return new ClusterInformers.ObservedQueue(
        name,
        metadata.get("uid").getAsString(),
        metadata.get("resourceVersion").getAsString(),
        status != null && status.isJsonObject() ? status.getAsJsonObject() : null);
  }

  private QueueInfo read(String name) throws ApiException {
    QueueReader.Read read = QueueReader.readAll(List.of(stored(name)), client.getJSON().getGson());
    assertThat(read.unreadable()).as("unreadable").isEmpty();
    return read.queues().get(0);
  }

  @Test
  void aQueueWithTheTreeFieldsIsStoredAndReadWithThem() throws Exception {
    String parent = unique("games");
    String child = unique("atari");
    createQueue(parent, Map.of("guarantee", Map.of("cpu", "64"), "preemptMinRuntime", "10m"));
    createQueue(
        child,
        Map.of(
            "parent",
            parent,
            "guarantee",
            Map.of("cpu", "32", "nvidia.com/gpu", 4),
            "reclaimMinRuntime",
            "1h30m"));

    QueueInfo read = read(child);

    assertThat(read.parent()).isEqualTo(parent);
    assertThat(read.guarantee()).isEqualTo(Resource.of("cpu", "32", "nvidia.com/gpu", "4"));
    assertThat(read.preemptMinRuntime()).as("inherited, so unset here").isNull();
    assertThat(read.reclaimMinRuntime()).isEqualTo(Duration.ofMinutes(90));
    assertThat(read(parent).preemptMinRuntime()).isEqualTo(Duration.ofMinutes(10));
    assertThat(KubectlTable.get(client, TABLE_PATH + child).cell("Parent")).isEqualTo(parent);
    assertThat(KubectlTable.get(client, TABLE_PATH + parent).cell("Parent")).isEmpty();
  }

  @Test
  void anOldQueueIsStoredWithoutTheNewFieldsAndMeansWhatItMeant() throws Exception {
    String name = unique("legacy");
    createQueue(name, Map.of("weight", 3, "capability", Map.of("cpu", "40")));

    JsonObject spec = stored(name).getAsJsonObject("spec");
    QueueInfo read = read(name);

    assertThat(spec.keySet())
        .as("the API server adds no tree field")
        .doesNotContain("parent", "guarantee", "preemptMinRuntime", "reclaimMinRuntime");
    assertThat(read)
        .isEqualTo(new QueueInfo(name, 3, Resource.of("cpu", "40"), true, null, 0, true));
  }

  /**
   * A TYJob written as before {@code spec.preemptible} existed — opted out by the annotation only —
   * is stored without the field (the CRD gives it no default) and is still read as not preemptible;
   * one without either stays preemptible.
   */
  @Test
  void anOldTyJobKeepsItsAnnotationsMeaning() throws Exception {
    String optedOut = unique("legacy-kept");
    String plain = unique("legacy-plain");
    createTyJob(optedOut, Map.of(TYJobAnnotations.PREEMPTABLE, "false"));
    createTyJob(plain, Map.of());

    JsonObject stored = storedTyJob(optedOut);

    assertThat(stored.getAsJsonObject("spec").keySet()).doesNotContain("preemptible");
    assertThat(readTyJob(stored).preemptable()).isFalse();
    assertThat(readTyJob(storedTyJob(plain)).preemptable()).isTrue();
  }

  private void createTyJob(String name, Map<String, String> annotations) throws ApiException {
    Map<String, Object> template =
        Map.of("spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox"))));
    Map<String, Object> job = new HashMap<>();
    job.put("apiVersion", ArrangerResources.API_VERSION);
    job.put("kind", ArrangerResources.TYJOB_KIND);
    job.put("metadata", Map.of("name", name, "annotations", annotations));
    job.put(
        "spec",
        Map.of(
            "leader",
            Map.of("name", "learner", "template", template),
            "workerSets",
            List.of(Map.of("name", "actor", "counts", 1, "template", template))));
    new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            job)
        .execute();
  }

  private JsonObject storedTyJob(String name) throws ApiException {
    Object raw =
        new CustomObjectsApi(client)
            .getNamespacedCustomObject(
                ArrangerResources.GROUP,
                ArrangerResources.VERSION,
                "default",
                ArrangerResources.TYJOBS,
                name)
            .execute();
    return client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
  }

  private JobInfo readTyJob(JsonObject stored) {
    V1alpha1TYJob job = client.getJSON().getGson().fromJson(stored, V1alpha1TYJob.class);
    return JobReader.job(job, LivePods.of(List.of(), List.of()), Instant.now());
  }

  @Test
  void theCrdRefusesWhatTheSchedulerCouldNotRead() {
    assertThatThrownBy(() -> createQueue(unique("bad"), Map.of("preemptMinRuntime", "10 minutes")))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).getCode()).isEqualTo(422))
        .satisfies(
            e -> assertThat(((ApiException) e).getResponseBody()).contains("preemptMinRuntime"));
    assertThatThrownBy(() -> createQueue(unique("bad"), Map.of("parent", "Not_A_Queue")))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).getResponseBody()).contains("spec.parent"));
    assertThatThrownBy(() -> createQueue(unique("bad"), Map.of("guarantee", Map.of("cpu", "lots"))))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).getResponseBody()).contains("guarantee"));
  }

  private static QueueSummary summary(String name, String parent, String treeProblem) {
    return new QueueSummary(
        name,
        Resource.of("cpu", "20"),
        Resource.of("cpu", "24", "memory", "32Gi"),
        1,
        0,
        1,
        true,
        1,
        parent,
        Resource.of("cpu", "16"),
        Resource.of("cpu", "8", "memory", "32Gi"),
        treeProblem);
  }

  @Test
  void theStatusCarriesTheTreeFieldsAndTheCondition() throws Exception {
    String name = unique("atari");
    createQueue(name, Map.of("parent", "games", "guarantee", Map.of("cpu", "16")));
    Instant now = Instant.parse("2026-11-27T12:00:00Z");

    QueueStatusWriter.Report report =
        writer.write(Map.of(name, summary(name, "games", null)), Map.of(name, observed(name)), now);

    assertThat(report.written()).isEqualTo(1);
    JsonObject status = stored(name).getAsJsonObject("status");
    assertThat(status.get("parent").getAsString()).isEqualTo("games");
    assertThat(status.getAsJsonObject("guarantee").get("cpu").getAsString()).isEqualTo("16");
    assertThat(status.getAsJsonObject("overQuota").get("cpu").getAsString()).isEqualTo("8");
    assertThat(status.getAsJsonObject("overQuota").get("memory").getAsString()).isEqualTo("32Gi");
    assertThat(status.get("pending").getAsInt()).isEqualTo(1);
    JsonObject condition = status.getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertThat(condition.get("type").getAsString()).isEqualTo("TreeValid");
    assertThat(condition.get("status").getAsString()).isEqualTo("True");
    assertThat(condition.get("lastTransitionTime").getAsString()).isEqualTo("2026-11-27T12:00:00Z");
    KubectlTable table = KubectlTable.get(client, TABLE_PATH + name);
    assertThat(table.cell("Parent")).isEqualTo("games");
    assertThat(table.cell("TreeValid")).isEqualTo("True");
    assertThat(table.cell("Pending")).isEqualTo("1");
    assertThat(table.cell("Running")).isEqualTo("1");
    assertThat(table.wide()).contains("TreeValid").doesNotContain("Parent");

    // Read back by the informer's path: the same summary writes nothing.
    assertThat(
            writer
                .write(
                    Map.of(name, summary(name, "games", null)),
                    Map.of(name, observed(name)),
                    now.plusSeconds(1))
                .written())
        .isZero();
  }

  @Test
  void anInvalidTreeIsAnnouncedOnceNotEveryCycle() throws Exception {
    String name = unique("orphan");
    createQueue(name, Map.of("parent", "nowhere"));
    String problem = "its parent nowhere does not exist";
    QueueSummary invalid = summary(name, "nowhere", problem);
    Instant start = Instant.parse("2026-11-27T12:00:00Z");

    // Twenty cycles: the first write stores the problem; the others find it stored (once the
    // queue's status shows it) or written already.
    for (int cycle = 0; cycle < 20; cycle++) {
      writer.write(Map.of(name, invalid), Map.of(name, observed(name)), start.plusSeconds(cycle));
    }
    assertThat(events.awaitIdle(Duration.ofSeconds(10))).isTrue();

    JsonObject condition =
        stored(name)
            .getAsJsonObject("status")
            .getAsJsonArray("conditions")
            .get(0)
            .getAsJsonObject();
    assertThat(condition.get("status").getAsString()).isEqualTo("False");
    assertThat(condition.get("reason").getAsString()).isEqualTo("InvalidQueueTree");
    assertThat(condition.get("message").getAsString()).isEqualTo(problem);
    assertThat(KubectlTable.get(client, TABLE_PATH + name).cell("TreeValid")).isEqualTo("False");
    List<CoreV1Event> announced = queueEvents(name);
    assertThat(announced).hasSize(1);
    CoreV1Event event = announced.get(0);
    assertThat(event.getType()).isEqualTo("Warning");
    assertThat(event.getReason()).isEqualTo("InvalidQueueTree");
    assertThat(event.getMessage()).isEqualTo(problem);
    assertThat(event.getCount()).as("recorded once, not counted per cycle").isEqualTo(1);
    assertThat(event.getInvolvedObject().getKind()).isEqualTo("Queue");
    assertThat(event.getInvolvedObject().getUid())
        .isEqualTo(stored(name).getAsJsonObject("metadata").get("uid").getAsString());

    // A writer that starts afresh (a new leader) finds the problem stored: nothing more.
    QueueStatusWriter next =
        new QueueStatusWriter(
            new StatusPatcher(
                client,
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(500), 5),
                () -> true,
                Duration.ofSeconds(10)),
            threads,
            events);
    assertThat(
            next.write(Map.of(name, invalid), Map.of(name, observed(name)), start.plusSeconds(30))
                .written())
        .isZero();
    assertThat(events.awaitIdle(Duration.ofSeconds(10))).isTrue();
    assertThat(queueEvents(name)).hasSize(1);
  }

  private List<CoreV1Event> queueEvents(String name) throws ApiException {
    return new CoreV1Api(client)
        .listNamespacedEvent("default")
        .fieldSelector("involvedObject.name=" + name + ",involvedObject.kind=Queue")
        .execute()
        .getItems();
  }
}
