package io.tyrl.arranger.testing.chaos;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.JobState;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.NodeCapacity;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the cluster every period and feeds {@link ClusterInvariants}: pods and TYJobs from watches
 * (every pod event, so a pod replaced between two samples is still seen; a watch rather than a list
 * per sample, because listing hundreds of jobs every few hundred ms on a busy machine took longer
 * than the sample period), nodes listed afresh — so a sample also fails while the API server is
 * out. TYJobs are read untyped, so that a malformed one among them cannot break the read of the
 * others. A sample whose read fails is skipped and counted; the next one reads again.
 */
public final class ClusterSampler implements AutoCloseable {

  private static final String JOB_NAME_LABEL = PodLabels.JOB_NAME;

  private final ClusterInvariants invariants;
  private final CoreV1Api core;
  private final SharedInformerFactory informerFactory;
  private final SharedIndexInformer<V1Pod> pods;
  private final SharedIndexInformer<DynamicKubernetesObject> tyJobs;
  private final Duration period;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "chaos-sampler");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicInteger failedSamples = new AtomicInteger();
  private final AtomicReference<String> lastFailure = new AtomicReference<>("");

  /**
   * @param client for the lists; give it a short read timeout so that a frozen API server costs a
   *     sample, not the sampler
   * @param watchClient for the watches (read timeout 0)
   */
  public ClusterSampler(
      ApiClient client, ApiClient watchClient, ClusterInvariants invariants, Duration period) {
    this.invariants = invariants;
    this.period = period;
    this.core = new CoreV1Api(client);
    this.informerFactory = new SharedInformerFactory(watchClient);
    this.pods =
        informerFactory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", watchClient),
            V1Pod.class,
            0);
    this.tyJobs =
        informerFactory.sharedIndexInformerFor(
            new DynamicKubernetesApi(
                ArrangerResources.GROUP,
                ArrangerResources.VERSION,
                ArrangerResources.TYJOBS,
                watchClient),
            DynamicKubernetesObject.class,
            0);
    pods.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1Pod pod) {
            invariants.podSeen(podState(pod));
          }

          @Override
          public void onUpdate(V1Pod before, V1Pod after) {
            invariants.podSeen(podState(after));
          }

          @Override
          public void onDelete(V1Pod pod, boolean finalStateUnknown) {
            invariants.podGone(podState(pod));
          }
        });
  }

  public ClusterSampler start() {
    informerFactory.startAllRegisteredInformers();
    executor.scheduleWithFixedDelay(this::sampleOnce, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** Samples that could not be taken (reads failed), and why the last one failed. */
  public int failedSamples() {
    return failedSamples.get();
  }

  public String lastFailure() {
    return lastFailure.get();
  }

  private void sampleOnce() {
    try {
      ClusterSnapshot snapshot = snapshot();
      if (snapshot != null) {
        invariants.observe(snapshot);
      }
    } catch (ApiException | RuntimeException e) {
      failedSamples.incrementAndGet();
      lastFailure.set(Instant.now() + " " + describe(e));
    }
  }

  /** A snapshot, or null while the watches have not synced yet. */
  private ClusterSnapshot snapshot() throws ApiException {
    if (!pods.hasSynced() || !tyJobs.hasSynced()) {
      return null;
    }
    // Taken before any read: a job submitted after this instant is not expected in this snapshot.
    Instant at = Instant.now();
    List<NodeCapacity> nodes = new ArrayList<>();
    for (V1Node node : core.listNode().execute().getItems()) {
      nodes.add(
          new NodeCapacity(
              node.getMetadata().getName(),
              numbers(node.getStatus() == null ? null : node.getStatus().getAllocatable())));
    }
    List<JobState> jobs = new ArrayList<>();
    for (DynamicKubernetesObject job : tyJobs.getIndexer().list()) {
      jobs.add(jobState(job.getRaw()));
    }
    List<PodState> podStates =
        pods.getIndexer().list().stream().map(ClusterSampler::podState).toList();
    return new ClusterSnapshot(at, nodes, podStates, jobs);
  }

  static PodState podState(V1Pod pod) {
    Map<String, BigDecimal> requests = new HashMap<>();
    if (pod.getSpec() != null) {
      for (V1Container container : pod.getSpec().getContainers()) {
        if (container.getResources() != null) {
          numbers(container.getResources().getRequests())
              .forEach((r, q) -> requests.merge(r, q, BigDecimal::add));
        }
      }
    }
    String owner = null;
    if (pod.getMetadata().getOwnerReferences() != null) {
      owner =
          pod.getMetadata().getOwnerReferences().stream()
              .filter(ref -> ArrangerResources.TYJOB_KIND.equals(ref.getKind()))
              .map(V1OwnerReference::getUid)
              .findFirst()
              .orElse(null);
    }
    if (owner == null && pod.getMetadata().getLabels() != null) {
      owner = pod.getMetadata().getLabels().get(JOB_NAME_LABEL);
    }
    return new PodState(
        pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(),
        pod.getMetadata().getUid(),
        owner,
        pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
        pod.getStatus() == null ? null : pod.getStatus().getPhase(),
        pod.getMetadata().getDeletionTimestamp() != null,
        requests);
  }

  /** A TYJob read untyped: any field may be missing or of the wrong type in a malformed one. */
  static JobState jobState(JsonObject job) {
    JsonObject metadata = object(job, "metadata");
    JsonObject status = object(job, "status");
    String name = string(metadata, "name");
    Map<String, String> allocations = new HashMap<>();
    JsonObject allocated = object(status, "allocations");
    allocated
        .entrySet()
        .forEach(
            e -> {
              if (e.getValue().isJsonPrimitive()) {
                allocations.put(e.getKey(), e.getValue().getAsString());
              }
            });
    Map<String, Map<String, BigDecimal>> requestsByPod = new HashMap<>();
    JsonObject spec = object(job, "spec");
    for (String pod : allocations.keySet()) {
      requestsByPod.put(pod, requestsOf(spec, name, pod));
    }
    return new JobState(
        string(metadata, "namespace"),
        name,
        string(metadata, "uid"),
        string(status, "stage"),
        allocations,
        requestsByPod);
  }

  /**
   * The requests of one pod of the job, found by its deterministic name: {@code <job>-<leader>} or
   * {@code <job>-<workerSet>-<index>}. Only allocated pods are looked up, so a huge {@code counts}
   * costs nothing.
   */
  private static Map<String, BigDecimal> requestsOf(JsonObject spec, String job, String pod) {
    JsonObject leader = object(spec, "leader");
    if (pod.equals(job + "-" + string(leader, "name"))) {
      return templateRequests(leader);
    }
    JsonElement sets = spec.get("workerSets");
    if (sets != null && sets.isJsonArray()) {
      for (JsonElement set : sets.getAsJsonArray()) {
        if (set.isJsonObject()) {
          String prefix = job + "-" + string(set.getAsJsonObject(), "name") + "-";
          if (pod.startsWith(prefix) && pod.substring(prefix.length()).matches("\\d+")) {
            return templateRequests(set.getAsJsonObject());
          }
        }
      }
    }
    return Map.of();
  }

  private static Map<String, BigDecimal> templateRequests(JsonObject role) {
    Map<String, BigDecimal> requests = new HashMap<>();
    JsonElement containers = object(object(role, "template"), "spec").get("containers");
    if (containers == null || !containers.isJsonArray()) {
      return requests;
    }
    for (JsonElement container : (JsonArray) containers) {
      if (!container.isJsonObject()) {
        continue;
      }
      object(object(container.getAsJsonObject(), "resources"), "requests")
          .entrySet()
          .forEach(
              e -> {
                BigDecimal amount = quantity(e.getValue());
                if (amount != null) {
                  requests.merge(e.getKey(), amount, BigDecimal::add);
                }
              });
    }
    return requests;
  }

  /**
   * A quantity's value, or null for one that does not parse (a malformed job's "abc" holds
   * nothing).
   */
  private static BigDecimal quantity(JsonElement value) {
    if (value == null || !value.isJsonPrimitive()) {
      return null;
    }
    try {
      return new Quantity(value.getAsString()).getNumber();
    } catch (RuntimeException unparsable) {
      return null;
    }
  }

  private static Map<String, BigDecimal> numbers(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> numbers = new HashMap<>();
    if (quantities != null) {
      quantities.forEach((resource, quantity) -> numbers.put(resource, quantity.getNumber()));
    }
    return numbers;
  }

  private static JsonObject object(JsonObject parent, String field) {
    JsonElement value = parent == null ? null : parent.get(field);
    return value != null && value.isJsonObject() ? value.getAsJsonObject() : new JsonObject();
  }

  private static String string(JsonObject parent, String field) {
    JsonElement value = parent.get(field);
    return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
  }

  private static String describe(Exception e) {
    if (e instanceof ApiException api) {
      return "HTTP " + api.getCode() + (api.getCode() == 0 ? " " + api.getCause() : "");
    }
    return e.toString();
  }

  @Override
  public void close() {
    executor.shutdownNow();
    informerFactory.stopAllRegisteredInformers();
  }
}
