package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.Allocations;
import io.tyrl.arranger.crd.contract.status.GpuDeviceSeats;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.crd.read.PlainJson;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.kube.ScopedInformer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Read access to what the informers hold: TYJobs (as raw objects, see {@link JobViewMapper}) and
 * the pods carrying Arranger's job-name label, indexed by their job, in the namespaces the
 * controller watches.
 */
public final class InformerCache {

  /** Index of pods by the key ({@code namespace/name}) of the job their label names. */
  public static final String BY_JOB = "arranger-job";

  /** Index of pods by the node they are bound to. */
  public static final String BY_NODE = "arranger-node";

  private final ScopedInformer<DynamicKubernetesObject> jobs;
  private final ScopedInformer<V1Pod> pods;

  public InformerCache(ScopedInformer<DynamicKubernetesObject> jobs, ScopedInformer<V1Pod> pods) {
    this.jobs = jobs;
    this.pods = pods;
  }

  /** Adds the job index to the pod informer; must run before the informer starts. */
  /** Objects each informer's cache holds, by resource, for the informer gauge. */
  public Map<String, IntSupplier> cachedObjects() {
    return Map.of("pods", () -> pods.listKeys().size(), "tyjobs", () -> jobs.listKeys().size());
  }

  public static void indexPodsByJob(ScopedInformer<V1Pod> pods) {
    pods.addIndexers(
        Map.of(
            BY_JOB, pod -> jobKeyOf(pod).map(List::of).orElse(List.of()),
            BY_NODE,
                pod ->
                    pod.getSpec() == null || pod.getSpec().getNodeName() == null
                        ? List.of()
                        : List.of(pod.getSpec().getNodeName())));
  }

  /** Keys of the jobs with a pod bound to that node. */
  public List<String> jobsOnNode(String nodeName) {
    return pods.byIndex(BY_NODE, nodeName).stream()
        .map(InformerCache::jobKeyOf)
        .flatMap(Optional::stream)
        .distinct()
        .toList();
  }

  /** {@code namespace/job} from the pod's job-name label. */
  public static Optional<String> jobKeyOf(V1Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getLabels() == null) {
      return Optional.empty();
    }
    String job = pod.getMetadata().getLabels().get(PodLabels.JOB_NAME);
    return job == null || job.isEmpty()
        ? Optional.empty()
        : Optional.of(pod.getMetadata().getNamespace() + "/" + job);
  }

  /**
   * The reservation pods the job's status seats GPU shares on: for each pod with a device in {@code
   * status.gpuDevices} and a node in {@code status.allocations}, that device's reservation. An
   * ended job seats none: the scheduler no longer writes its status, and its pods are gone or
   * going.
   */
  public static Set<String> reservationsSeatedBy(DynamicKubernetesObject job) {
    JsonObject status = TYJobDecoder.object(job.getRaw(), "status");
    if (status == null
        || !status.has(StatusFields.GPU_DEVICES)
        || Stage.fromWireName(TYJobDecoder.string(status, StatusFields.STAGE))
            .filter(Stage::isTerminal)
            .isPresent()) {
      return Set.of();
    }
    Map<String, Integer> seats =
        GpuDeviceSeats.decode(PlainJson.toPlain(status.get(StatusFields.GPU_DEVICES)));
    Map<String, String> allocations =
        Allocations.decode(PlainJson.toPlain(status.get(StatusFields.ALLOCATIONS)));
    Set<String> reservations = new HashSet<>();
    seats.forEach(
        (pod, device) -> {
          String node = allocations.get(pod);
          if (node != null) {
            reservations.add(GpuShareDevices.reservationPodName(node, device));
          }
        });
    return reservations;
  }

  /** Keys of the cached jobs whose status seats a GPU share on the reservation pod named so. */
  public List<String> jobsSeatedOn(String reservation) {
    List<String> seated = new ArrayList<>();
    for (String key : jobKeys()) {
      job(key)
          .filter(job -> reservationsSeatedBy(job).contains(reservation))
          .ifPresent(job -> seated.add(key));
    }
    return seated;
  }

  public static String keyOf(DynamicKubernetesObject job) {
    return metadata(job, "namespace").orElse("") + "/" + metadata(job, "name").orElse("");
  }

  /**
   * A field of the job's metadata, read from its JSON: {@code getMetadata()} decodes the whole
   * metadata on every call, and these are read on every event and reconcile.
   */
  public static Optional<String> metadata(DynamicKubernetesObject job, String field) {
    return Optional.ofNullable(TYJobDecoder.object(job.getRaw(), "metadata"))
        .map(metadata -> TYJobDecoder.string(metadata, field));
  }

  public boolean hasSynced() {
    return jobs.hasSynced() && pods.hasSynced();
  }

  public Optional<DynamicKubernetesObject> job(String key) {
    return Optional.ofNullable(jobs.getByKey(key));
  }

  public List<String> jobKeys() {
    return jobs.listKeys();
  }

  /**
   * The pods labelled with the job's name (possibly including leftovers of an earlier job of that
   * name).
   */
  public List<V1Pod> podsOf(String jobKey) {
    return pods.byIndex(BY_JOB, jobKey);
  }

  public Optional<V1Pod> pod(String namespace, String name) {
    return Optional.ofNullable(pods.getByKey(namespace + "/" + name));
  }

  /** Cached jobs by {@code status.stage}; a job without a (known) stage counts as Pending. */
  public Map<Stage, Long> jobsByStage() {
    Map<Stage, Long> counts = new EnumMap<>(Stage.class);
    for (DynamicKubernetesObject job : jobs.list()) {
      JsonObject status = TYJobDecoder.object(job.getRaw(), "status");
      String stage = status == null ? null : TYJobDecoder.string(status, "stage");
      counts.merge(Stage.fromWireNameOrPending(stage), 1L, Long::sum);
    }
    return counts;
  }
}
