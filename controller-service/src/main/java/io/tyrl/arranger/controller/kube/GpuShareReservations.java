package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1EnvVarSource;
import io.kubernetes.client.openapi.models.V1ObjectFieldSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reservation pods that carry the scheduler's GPU device choice to the node ({@link
 * GpuShareDevices}): one per device that holds shares, in one namespace of the operator's choice. A
 * pod sharing a device is created only once the device's reservation runs and has written the ID of
 * the GPU it holds; until then its creation waits, and the reservation's change brings its job
 * back. A reservation no seat needs any more is deleted.
 */
public final class GpuShareReservations {

  /** What a pod to be created needs of its GPU device. */
  public sealed interface Device {
    /** The pod holds no share of a GPU, or its job's status names no device for it. */
    record NotShared() implements Device {}

    /** The device's reservation runs and holds the GPU with this ID. */
    record Ready(int index, String id) implements Device {}

    /**
     * The reservation is being created, started or replaced; the pod waits.
     *
     * @param state what keeps the reservation from holding its GPU, as a phrase after its name
     * @param waited how long the reservation has existed (zero when it was just created)
     * @param ended the reservation ended (its GPU lost or its script failed) and is being replaced:
     *     worth telling the user at once, however young it was
     */
    record Waiting(String reservation, String state, Duration waited, boolean ended)
        implements Device {

      /**
       * True when the user should be told: it ended, or has not started within {@code patience}.
       */
      public boolean overdue(Duration patience) {
        return ended || waited.compareTo(patience) >= 0;
      }
    }
  }

  private static final Device NOT_SHARED = new Device.NotShared();

  /**
   * The container of a reservation pod: it reads the GPU ID the device plugin gave it and writes it
   * into its own annotation through the API server, then holds the device until it is deleted.
   */
  static final String RESERVE_SCRIPT =
      """
      set -eu
      id="${NVIDIA_VISIBLE_DEVICES:-}"
      case "$id" in ""|all|none|void) echo "no GPU ID in NVIDIA_VISIBLE_DEVICES ('$id'): the device plugin must pass devices as that variable (its default)" >&2; exit 1 ;; esac
      token=$(cat /var/run/secrets/kubernetes.io/serviceaccount/token)
      curl -sS --fail --retry 5 --retry-all-errors \\
        --cacert /var/run/secrets/kubernetes.io/serviceaccount/ca.crt \\
        -H "Authorization: Bearer $token" -H "Content-Type: application/merge-patch+json" \\
        -X PATCH "https://${KUBERNETES_SERVICE_HOST}:${KUBERNETES_SERVICE_PORT}/api/v1/namespaces/${POD_NAMESPACE}/pods/${POD_NAME}" \\
        -d "{\\"metadata\\":{\\"annotations\\":{\\"%s\\":\\"$id\\"}}}" >/dev/null
      exec sleep 2147483647
      """
          .formatted(GpuShareDevices.DEVICE_ID_ANNOTATION);

  private static final Logger log = LoggerFactory.getLogger(GpuShareReservations.class);

  private final CoreV1Api core;
  private final Indexer<V1Pod> reservations;
  private final InformerCache cache;
  private final LeadershipFence fence;
  private final Clock clock;
  private final String namespace;
  private final String image;
  private final String serviceAccount;
  private final Duration unusedGrace;
  private final Duration startPatience;

  /**
   * @param reservations the reservation pods of {@code namespace}, as cached
   * @param unusedGrace how long a reservation no seat needs is kept before it is deleted (a job
   *     seated on it may not be in the cache yet)
   * @param startPatience how long a reservation may take to hold its GPU before the jobs whose pods
   *     wait for it are told why (pulling its image the first time on a node takes a while)
   */
  public GpuShareReservations(
      CoreV1Api core,
      Indexer<V1Pod> reservations,
      InformerCache cache,
      LeadershipFence fence,
      Clock clock,
      String namespace,
      String image,
      String serviceAccount,
      Duration unusedGrace,
      Duration startPatience) {
    this.core = core;
    this.reservations = reservations;
    this.cache = cache;
    this.fence = fence;
    this.clock = clock;
    this.namespace = namespace;
    this.image = image;
    this.serviceAccount = serviceAccount;
    this.unusedGrace = unusedGrace;
    this.startPatience = startPatience;
  }

  /** How long a reservation may take to hold its GPU before its waiting pods' jobs are told why. */
  public Duration startPatience() {
    return startPatience;
  }

  /**
   * The Event's message for the pods of one job waiting on {@code waiting}: {@code pods "a-0",
   * "a-1" of node "n1" wait for their GPU share: reservation pod ns/r is Pending: ImagePullBackOff
   * (…)}.
   */
  static String waitingMessage(List<String> pods, String node, Device.Waiting waiting) {
    StringBuilder names = new StringBuilder();
    for (String pod : pods) {
      names.append(names.length() > 0 ? ", " : "").append('"').append(pod).append('"');
    }
    String waits = pods.size() == 1 ? "waits for its" : "wait for their";
    return "%s %s of node \"%s\" %s GPU share: reservation pod %s %s"
        .formatted(
            pods.size() == 1 ? "pod" : "pods",
            names,
            node,
            waits,
            waiting.reservation(),
            waiting.state());
  }

  /**
   * The device a pod about to be created shares, creating its reservation when there is none and
   * replacing one that failed.
   */
  public Device deviceFor(JobSnapshot job, PlannedAction.CreatePod create) {
    Integer seat = job.gpuDevices().get(create.podName());
    if (seat == null || !asksShare(job, create.slot())) {
      return NOT_SHARED;
    }
    String name = GpuShareDevices.reservationPodName(create.nodeName(), seat);
    V1Pod reservation = reservations.getByKey(namespace + "/" + name);
    if (reservation == null) {
      create(name, create.nodeName(), seat);
      return new Device.Waiting(qualified(name), "was just created", Duration.ZERO, false);
    }
    Duration waited = age(reservation);
    String phase = reservation.getStatus() == null ? null : reservation.getStatus().getPhase();
    if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
      String ended = ReservationStates.ended(reservation);
      log.warn("GPU reservation {}/{} {}; replacing it", namespace, name, ended);
      delete(reservation);
      return new Device.Waiting(qualified(name), ended + "; it is being replaced", waited, true);
    }
    Map<String, String> annotations = reservation.getMetadata().getAnnotations();
    String id = annotations == null ? null : annotations.get(GpuShareDevices.DEVICE_ID_ANNOTATION);
    if (reservation.getMetadata().getDeletionTimestamp() != null) {
      return new Device.Waiting(qualified(name), "is being deleted", waited, false);
    }
    if (!"Running".equals(phase)) {
      return new Device.Waiting(
          qualified(name), ReservationStates.notRunning(reservation), waited, false);
    }
    if (id == null || id.isBlank()) {
      return new Device.Waiting(qualified(name), ReservationStates.NO_ID, waited, false);
    }
    return new Device.Ready(seat, id);
  }

  private String qualified(String name) {
    return namespace + "/" + name;
  }

  private Duration age(V1Pod reservation) {
    OffsetDateTime created = reservation.getMetadata().getCreationTimestamp();
    if (created == null) {
      return Duration.ZERO;
    }
    Duration age = Duration.between(created.toInstant(), clock.instant());
    return age.isNegative() ? Duration.ZERO : age;
  }

  /**
   * Deletes the reservations no job's status seats a share on and no live pod shares, once older
   * than the grace.
   */
  public void deleteUnused() {
    // On a cluster without shares the sweep reads nothing: it would walk every job and pod.
    if (!fence.mayWrite() || reservations.list().isEmpty()) {
      return;
    }
    Set<String> needed = new HashSet<>();
    for (String key : cache.jobKeys()) {
      cache.job(key).ifPresent(job -> needed.addAll(InformerCache.reservationsSeatedBy(job)));
      for (V1Pod pod : cache.podsOf(key)) {
        reservationShared(pod).ifPresent(needed::add);
      }
    }
    Instant oldEnough = clock.instant().minus(unusedGrace);
    for (V1Pod reservation : reservations.list()) {
      V1ObjectMeta metadata = reservation.getMetadata();
      OffsetDateTime created = metadata.getCreationTimestamp();
      if (needed.contains(metadata.getName())
          || metadata.getDeletionTimestamp() != null
          || (created != null && created.toInstant().isAfter(oldEnough))) {
        continue;
      }
      log.info(
          "deleting GPU reservation {}/{}: no share is seated on it",
          namespace,
          metadata.getName());
      delete(reservation);
    }
  }

  /** The reservation a live pod of a job shares, from the annotations its creation gave it. */
  private static Optional<String> reservationShared(V1Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String device = annotations == null ? null : annotations.get(GpuShareDevices.DEVICE_ANNOTATION);
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (device == null || node == null || "Succeeded".equals(phase) || "Failed".equals(phase)) {
      return Optional.empty();
    }
    try {
      return Optional.of(GpuShareDevices.reservationPodName(node, Integer.parseInt(device)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static boolean asksShare(JobSnapshot job, PodSlot slot) {
    V1PodTemplateSpec template =
        slot instanceof PodSlot.Worker worker
            ? job.workerTemplates().get(worker.workerSet())
            : job.leaderTemplate().orElse(null);
    return template != null
        && template.getMetadata() != null
        && template.getMetadata().getAnnotations() != null
        && template.getMetadata().getAnnotations().containsKey(GpuFraction.ANNOTATION);
  }

  private void create(String name, String node, int device) {
    if (!fence.mayWrite()) {
      return;
    }
    V1Pod pod = reservationPod(name, node, device);
    try {
      core.createNamespacedPod(namespace, pod).execute();
      log.info(
          "created GPU reservation {}/{} for device {} of node {}", namespace, name, device, node);
    } catch (ApiException e) {
      if (e.getCode() == 409) {
        // Created by an earlier attempt whose pod the cache has not shown yet.
        return;
      }
      throw failure("create", name, e);
    }
  }

  V1Pod reservationPod(String name, String node, int device) {
    V1Container container =
        new V1Container()
            .name("reserve")
            .image(image)
            .command(List.of("sh", "-c", RESERVE_SCRIPT))
            // The script's complaint on stderr becomes the container's termination message, which
            // the job's Event then quotes.
            .terminationMessagePolicy("FallbackToLogsOnError")
            .env(
                List.of(
                    fieldEnv("POD_NAME", "metadata.name"),
                    fieldEnv("POD_NAMESPACE", "metadata.namespace")))
            .resources(
                new V1ResourceRequirements()
                    .requests(
                        Map.of(
                            "cpu", Quantity.fromString("10m"),
                            "memory", Quantity.fromString("16Mi")))
                    .limits(
                        Map.of(
                            GpuFraction.GPU_RESOURCE,
                            Quantity.fromString("1"),
                            "cpu",
                            Quantity.fromString("100m"),
                            "memory",
                            Quantity.fromString("64Mi"))));
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName(node)
            .restartPolicy("Never")
            .serviceAccountName(serviceAccount)
            // Bound straight to the node the scheduler chose: whatever taints it carries, the
            // shares seated there tolerated them.
            .tolerations(List.of(new V1Toleration().operator("Exists")))
            .containers(List.of(container));
    // client-java starts this map empty, and the API server refuses an overhead without a
    // RuntimeClass.
    spec.setOverhead(null);
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(
            new V1ObjectMeta()
                .name(name)
                .namespace(namespace)
                .labels(Map.of(GpuShareDevices.RESERVATION_LABEL, "true"))
                .annotations(
                    Map.of(
                        GpuShareDevices.NODE_ANNOTATION,
                        node,
                        GpuShareDevices.DEVICE_ANNOTATION,
                        String.valueOf(device))))
        .spec(spec);
  }

  private static V1EnvVar fieldEnv(String name, String path) {
    return new V1EnvVar()
        .name(name)
        .valueFrom(new V1EnvVarSource().fieldRef(new V1ObjectFieldSelector().fieldPath(path)));
  }

  private void delete(V1Pod reservation) {
    if (!fence.mayWrite()) {
      return;
    }
    String name = reservation.getMetadata().getName();
    try {
      core.deleteNamespacedPod(name, namespace)
          .body(
              new V1DeleteOptions()
                  .preconditions(new V1Preconditions().uid(reservation.getMetadata().getUid())))
          .execute();
    } catch (ApiException e) {
      if (e.getCode() == 404 || e.getCode() == 409) {
        return;
      }
      throw failure("delete", name, e);
    }
  }

  private PlanApplyException failure(String verb, String name, ApiException e) {
    return new PlanApplyException(
        "cannot "
            + verb
            + " GPU reservation "
            + namespace
            + "/"
            + name
            + ": HTTP "
            + e.getCode()
            + " "
            + e.getResponseBody(),
        e);
  }
}
