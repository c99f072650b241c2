package io.tyrl.arranger.controller.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import io.tyrl.arranger.controller.app.ControllerApplication;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedKubelet;
import io.tyrl.arranger.testing.SimulatedNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One namespace on the test control plane, with what the ITs do to it: start controllers, create
 * TYJobs, act as the scheduler (allocations in status) and as the kubelet (pod status, confirming
 * deletions), and read back what the controller did.
 */
final class ClusterHarness {

  static final Duration TIMEOUT = Duration.ofSeconds(30);

  final ApiClient admin;
  final CoreV1Api core;
  final CustomObjectsApi custom;
  private final SimulatedKubelet kubelet;
  final String namespace;
  final String nodeA;
  final String nodeB;
  private final SimulatedNodes nodes;
  private final NodeSpec nodeASpec;
  private final Path kubeconfig;

  private ClusterHarness(ControlPlane controlPlane, ApiClient admin, String namespace) {
    this.admin = admin;
    this.core = new CoreV1Api(admin);
    this.custom = new CustomObjectsApi(admin);
    this.kubelet = new SimulatedKubelet(admin);
    this.namespace = namespace;
    try {
      this.kubeconfig =
          controlPlane.writeKubeconfig(
              Files.createTempDirectory("arranger-controller-it").resolve("kubeconfig"),
              ControlPlane.ADMIN);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.nodes = new SimulatedNodes(admin);
    this.nodeA = namespace + "-node-a";
    this.nodeB = namespace + "-node-b";
    this.nodeASpec = NodeSpec.named(nodeA).cpu("16").memory("64Gi").gpus(8).build();
    nodes.register(nodeASpec);
    nodes.register(NodeSpec.named(nodeB).cpu("16").memory("64Gi").build());
  }

  /** A fresh namespace, so that each IT class has its own jobs, pods and Lease. */
  static ClusterHarness inNewNamespace(ControlPlane controlPlane, String prefix)
      throws ApiException {
    ApiClient admin = controlPlane.adminClient();
    String namespace = prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    new CoreV1Api(admin)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
        .execute();
    return new ClusterHarness(controlPlane, admin, namespace);
  }

  /** As the kubelet: the pod is Running and Ready with a fresh IP. */
  V1Pod run(String pod) {
    return kubelet.run(namespace, pod);
  }

  V1Pod succeed(String pod) {
    return kubelet.succeed(namespace, pod);
  }

  V1Pod fail(String pod) {
    return kubelet.fail(namespace, pod);
  }

  /** As the kubelet refusing the bound pod at admission, e.g. {@code OutOfcpu}. */
  V1Pod reject(String pod, String reason) {
    return kubelet.reject(namespace, pod, reason);
  }

  /** Node A's kubelet stops reporting: its Ready condition turns False from now. */
  void markNodeANotReady() {
    nodes.markNotReady(nodeASpec);
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  /**
   * Properties of a controller that watches only this namespace, with timings shortened for tests.
   */
  Map<String, Object> controllerProperties(String identity) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("arranger.kubernetes.kubeconfig", kubeconfig.toString());
    properties.put("arranger.kubernetes.readiness-period", "300ms");
    properties.put("arranger.watch.namespaces", namespace);
    properties.put("arranger.controller.retry.initial-delay", "100ms");
    properties.put("arranger.controller.retry.max-delay", "2s");
    properties.put("arranger.leader-election.lease-name", "arranger-controller");
    properties.put("arranger.leader-election.lease-namespace", namespace);
    properties.put("arranger.leader-election.identity", identity);
    properties.put("arranger.leader-election.lease-duration", "4s");
    properties.put("arranger.kubernetes.request-timeout", "2s");
    properties.put("arranger.leader-election.renew-deadline", "3s");
    properties.put("arranger.leader-election.retry-period", "300ms");
    properties.put("server.port", "0");
    properties.put("spring.main.banner-mode", "off");
    return properties;
  }

  /**
   * Properties go in as command-line arguments: they must override application.yaml, not merely
   * default it.
   */
  ConfigurableApplicationContext startController(String identity) {
    return startController(identity, Map.of());
  }

  /**
   * @param overrides further properties, or other values for the test's defaults
   */
  ConfigurableApplicationContext startController(String identity, Map<String, Object> overrides) {
    Map<String, Object> properties = controllerProperties(identity);
    properties.putAll(overrides);
    String[] arguments =
        properties.entrySet().stream()
            .map(property -> "--" + property.getKey() + "=" + property.getValue())
            .toArray(String[]::new);
    return new SpringApplicationBuilder(ControllerApplication.class).run(arguments);
  }

  void createJob(TYJobBody body) throws ApiException {
    custom
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            namespace,
            ArrangerResources.TYJOBS,
            body.build())
        .execute();
  }

  /** Acts as the scheduler: writes scheduleState and allocations with a merge patch on /status. */
  void schedule(String job, String scheduleState, Map<String, String> allocations)
      throws ApiException {
    JsonObject status = new JsonObject();
    status.addProperty("scheduleState", scheduleState);
    status.add("allocations", JSON.getGson().toJsonTree(allocations));
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    PatchUtils.patch(
        Object.class,
        () ->
            custom
                .patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    namespace,
                    ArrangerResources.TYJOBS,
                    job,
                    new V1Patch(patch.toString()))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        admin);
  }

  /**
   * Acts as the scheduler choosing preemption victims for {@code preemptor}: writes {@code
   * status.victims}.
   */
  void chooseVictims(String preemptor, String victimJob, List<String> pods) throws ApiException {
    JsonObject victim = new JsonObject();
    victim.addProperty("namespace", namespace);
    victim.addProperty("job", victimJob);
    victim.add("pods", JSON.getGson().toJsonTree(pods));
    victim.addProperty("reason", "preempted by " + preemptor);
    JsonArray victims = new JsonArray();
    victims.add(victim);
    JsonObject status = new JsonObject();
    status.add("victims", victims);
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    PatchUtils.patch(
        Object.class,
        () ->
            custom
                .patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    namespace,
                    ArrangerResources.TYJOBS,
                    preemptor,
                    new V1Patch(patch.toString()))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        admin);
  }

  /** The leader on node A, every worker of {@code workerSet} on node B. */
  void scheduleAll(String job, String workerSet, int workers) throws ApiException {
    Map<String, String> allocations = new LinkedHashMap<>();
    allocations.put(job + "-learner", nodeA);
    for (int i = 0; i < workers; i++) {
      allocations.put(job + "-" + workerSet + "-" + i, nodeB);
    }
    schedule(job, "ScheduledSucceed", allocations);
  }

  void setTerminating(String job) throws ApiException {
    PatchUtils.patch(
        Object.class,
        () ->
            custom
                .patchNamespacedCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    namespace,
                    ArrangerResources.TYJOBS,
                    job,
                    new V1Patch("{\"spec\":{\"terminating\":true}}"))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        admin);
  }

  JsonObject job(String name) {
    try {
      Object raw =
          custom
              .getNamespacedCustomObject(
                  ArrangerResources.GROUP,
                  ArrangerResources.VERSION,
                  namespace,
                  ArrangerResources.TYJOBS,
                  name)
              .execute();
      return JSON.getGson().toJsonTree(raw).getAsJsonObject();
    } catch (ApiException e) {
      throw new IllegalStateException("cannot read TYJob " + name + ": " + e.getResponseBody(), e);
    }
  }

  JsonObject status(String job) {
    JsonElement status = job(job).get("status");
    return status == null ? new JsonObject() : status.getAsJsonObject();
  }

  String stage(String job) {
    JsonElement stage = status(job).get("stage");
    return stage == null ? "" : stage.getAsString();
  }

  void awaitStage(String job, String stage) {
    await("TYJob " + job + " in stage " + stage)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(stage(job)).isEqualTo(stage));
  }

  /** The condition of that type, as stored. */
  JsonObject condition(String job, String type) {
    for (JsonElement condition : status(job).getAsJsonArray("conditions")) {
      if (condition.getAsJsonObject().get("type").getAsString().equals(type)) {
        return condition.getAsJsonObject();
      }
    }
    throw new AssertionError("TYJob " + job + " has no condition " + type + ": " + status(job));
  }

  Optional<V1Pod> pod(String name) {
    try {
      return Optional.of(core.readNamespacedPod(name, namespace).execute());
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw new IllegalStateException("cannot read pod " + name + ": " + e.getResponseBody(), e);
    }
  }

  V1Pod awaitPod(String name) {
    return await("pod " + name)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> pod(name), Optional::isPresent)
        .orElseThrow();
  }

  List<V1Pod> pods(String job) {
    try {
      return core.listNamespacedPod(namespace)
          .labelSelector(PodLabels.JOB_NAME + "=" + job)
          .execute()
          .getItems();
    } catch (ApiException e) {
      throw new IllegalStateException("cannot list pods of " + job + ": " + e.getResponseBody(), e);
    }
  }

  static boolean isDeleted(Optional<V1Pod> pod) {
    return pod.isEmpty() || pod.get().getMetadata().getDeletionTimestamp() != null;
  }

  /** As the kubelet confirming that a deleted pod's containers stopped. */
  void confirmDeletion(String podName) {
    kubelet.confirmDeletion(namespace, podName);
  }

  void deletePod(String podName) throws ApiException {
    core.deleteNamespacedPod(podName, namespace).execute();
  }

  static String env(V1Pod pod, String name) {
    return pod.getSpec().getContainers().get(0).getEnv().stream()
        .filter(variable -> variable.getName().equals(name))
        .map(V1EnvVar::getValue)
        .findFirst()
        .orElse(null);
  }

  List<String> eventReasons(String job) throws ApiException {
    return core
        .listNamespacedEvent(namespace)
        .fieldSelector("involvedObject.name=" + job)
        .execute()
        .getItems()
        .stream()
        .map(CoreV1Event::getReason)
        .toList();
  }
}
