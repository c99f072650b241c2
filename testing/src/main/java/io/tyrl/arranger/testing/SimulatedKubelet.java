package io.tyrl.arranger.testing;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives pod status the way a kubelet would after a pod is bound: Running with an IP and Ready,
 * Succeeded, Failed with a container exit code, or refused at admission (e.g. {@code OutOfcpu}).
 * Pod IPs are loopback addresses: nothing ever connects to them.
 */
public final class SimulatedKubelet {

  private static final AtomicInteger POD_ADDRESSES = new AtomicInteger();
  private static final int HOSTS_PER_BLOCK = 250;
  private static final int ADDRESS_BLOCKS = 253 * 256;

  private final ApiClient client;
  private final CoreV1Api core;

  public SimulatedKubelet(ApiClient client) {
    this.client = client;
    this.core = new CoreV1Api(client);
  }

  /**
   * Marks the pod Running and Ready with a fresh IP, as the kubelet does once its containers
   * started.
   */
  public V1Pod run(String namespace, String name) {
    return run(namespace, name, podAddress(POD_ADDRESSES.getAndIncrement()));
  }

  /**
   * The n-th pod address: 127.3.0.1 onwards, a host part of 1..250 under each of the 253 × 256
   * third-and-second octets from 127.3.0 up, then over again — a long run reuses the addresses of
   * pods long gone, as a cluster's pod network does. (Counting the third octet up without bound
   * made an invalid address after 64,000 pods, which the API server refused.)
   */
  static String podAddress(int n) {
    int slot = Math.floorMod(n, ADDRESS_BLOCKS * HOSTS_PER_BLOCK);
    int block = slot / HOSTS_PER_BLOCK;
    return "127." + (3 + block / 256) + "." + (block % 256) + "." + (slot % HOSTS_PER_BLOCK + 1);
  }

  public V1Pod run(String namespace, String name, String podIp) {
    V1Pod pod = read(namespace, name);
    String now = now();
    JsonObject status = new JsonObject();
    status.addProperty("phase", "Running");
    status.addProperty("podIP", podIp);
    JsonArray podIps = new JsonArray();
    JsonObject ip = new JsonObject();
    ip.addProperty("ip", podIp);
    podIps.add(ip);
    status.add("podIPs", podIps);
    status.addProperty("hostIP", "127.0.0.1");
    status.addProperty("startTime", now);
    status.add("conditions", conditions(now, true));
    status.add("containerStatuses", containerStatuses(pod, "running", new JsonObject(), true));
    return patchStatus(namespace, name, status);
  }

  /**
   * The pod's image cannot be pulled: it stays Pending, its containers waiting in {@code
   * ImagePullBackOff} with the kubelet's message, as a node that cannot reach the registry reports.
   */
  public V1Pod backOffPullingImage(String namespace, String name) {
    V1Pod pod = read(namespace, name);
    String image = pod.getSpec().getContainers().get(0).getImage();
    JsonObject waiting = new JsonObject();
    waiting.addProperty("reason", "ImagePullBackOff");
    waiting.addProperty("message", "Back-off pulling image \"" + image + "\"");
    JsonObject status = new JsonObject();
    status.addProperty("phase", "Pending");
    status.addProperty("hostIP", "127.0.0.1");
    status.addProperty("startTime", now());
    status.add("conditions", conditions(now(), false));
    status.add("containerStatuses", containerStatuses(pod, "waiting", waiting, false));
    return patchStatus(namespace, name, status);
  }

  public V1Pod succeed(String namespace, String name) {
    return terminate(namespace, name, read(namespace, name), "Succeeded", 0, "Completed", null);
  }

  /**
   * Succeeds the pod of that uid, as a kubelet reports only on the pod it runs: false when it is
   * gone or another pod has its name now (the uid is a precondition of the patch, so a pod made
   * again under the name in between is never touched).
   */
  public boolean succeed(String namespace, String name, String uid) {
    Objects.requireNonNull(uid, "uid");
    try {
      V1Pod pod = read(namespace, name);
      if (!uid.equals(pod.getMetadata().getUid())) {
        return false;
      }
      terminate(namespace, name, pod, "Succeeded", 0, "Completed", uid);
      return true;
    } catch (IllegalStateException e) {
      if (isNotThatPod(e.getCause())) {
        return false;
      }
      throw e;
    }
  }

  /** The pod's containers exited with an error; the pod does not restart (restartPolicy Never). */
  public V1Pod fail(String namespace, String name) {
    return terminate(namespace, name, read(namespace, name), "Failed", 1, "Error", null);
  }

  /**
   * The kubelet refused the bound pod at admission, e.g. {@code OutOfcpu}, {@code OutOfmemory},
   * {@code NodeAffinity}: the pod fails without any container having run.
   */
  public V1Pod reject(String namespace, String name, String reason) {
    JsonObject status = new JsonObject();
    status.addProperty("phase", "Failed");
    status.addProperty("reason", reason);
    status.addProperty("message", "Pod was rejected: " + reason);
    return patchStatus(namespace, name, status);
  }

  /**
   * Removes a pod whose deletion was requested, as the kubelet confirms a graceful deletion once
   * the containers stopped; without it a bound pod stays Terminating.
   *
   * @return false if the pod was already gone
   */
  public boolean confirmDeletion(String namespace, String name) {
    return confirmDeletion(namespace, name, null);
  }

  /**
   * Removes the pod of that uid once its deletion was requested; false when it is gone already or
   * another pod has its name now. A kubelet removes only the pod it ran: removing by name alone
   * would remove a worker its controller made again under the same name meanwhile.
   */
  public boolean confirmDeletion(String namespace, String name, String uid) {
    try {
      V1DeleteOptions options = new V1DeleteOptions().gracePeriodSeconds(0L);
      if (uid != null) {
        options.setPreconditions(new V1Preconditions().uid(uid));
      }
      core.deleteNamespacedPod(name, namespace).body(options).execute();
      return true;
    } catch (ApiException e) {
      if (isNotThatPod(e)) {
        return false;
      }
      throw new IllegalStateException(
          "cannot remove pod " + namespace + "/" + name + ": " + e.getResponseBody(), e);
    }
  }

  /**
   * Gone (404), or a uid precondition failed because another pod has the name now: the API server
   * answers 409 Conflict to a delete and to a patch whose metadata.uid differs.
   */
  private static boolean isNotThatPod(Throwable e) {
    return e instanceof ApiException api && (api.getCode() == 404 || api.getCode() == 409);
  }

  private V1Pod terminate(
      String namespace,
      String name,
      V1Pod pod,
      String phase,
      int exitCode,
      String reason,
      String uid) {
    String now = now();
    JsonObject terminated = new JsonObject();
    terminated.addProperty("exitCode", exitCode);
    terminated.addProperty("reason", reason);
    terminated.addProperty("finishedAt", now);
    JsonObject status = new JsonObject();
    status.addProperty("phase", phase);
    status.add("conditions", conditions(now, false));
    status.add("containerStatuses", containerStatuses(pod, "terminated", terminated, false));
    return patchStatus(namespace, name, status, uid);
  }

  private static JsonArray conditions(String now, boolean ready) {
    JsonArray conditions = new JsonArray();
    for (String type : List.of("Initialized", "ContainersReady", "Ready", "PodScheduled")) {
      JsonObject condition = new JsonObject();
      condition.addProperty("type", type);
      boolean value = ready || type.equals("Initialized") || type.equals("PodScheduled");
      condition.addProperty("status", value ? "True" : "False");
      condition.addProperty("lastTransitionTime", now);
      conditions.add(condition);
    }
    return conditions;
  }

  private static JsonArray containerStatuses(
      V1Pod pod, String state, JsonObject details, boolean ready) {
    JsonArray statuses = new JsonArray();
    List<V1Container> containers =
        pod.getSpec() == null ? List.of() : pod.getSpec().getContainers();
    for (V1Container container : containers) {
      JsonObject stateObject = new JsonObject();
      JsonObject detail = details.deepCopy();
      if (state.equals("running")) {
        detail.addProperty("startedAt", now());
      }
      stateObject.add(state, detail);
      JsonObject status = new JsonObject();
      status.addProperty("name", container.getName());
      status.addProperty("image", container.getImage() == null ? "" : container.getImage());
      status.addProperty("imageID", "");
      status.addProperty("ready", ready);
      status.addProperty("restartCount", 0);
      status.addProperty("started", ready);
      status.add("state", stateObject);
      statuses.add(status);
    }
    return statuses;
  }

  /** What a pod's own container writes about itself through the API server: one annotation. */
  public V1Pod annotate(String namespace, String name, String key, String value) {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(key, value);
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return MergePatch.apply(
        V1Pod.class,
        client,
        patch.toString(),
        body -> core.patchNamespacedPod(name, namespace, body).buildCall(null));
  }

  private V1Pod patchStatus(String namespace, String name, JsonObject status) {
    return patchStatus(namespace, name, status, null);
  }

  /** With a uid, the patch carries it as a precondition: another pod of the name is refused. */
  private V1Pod patchStatus(String namespace, String name, JsonObject status, String uid) {
    JsonObject patch = new JsonObject();
    if (uid != null) {
      JsonObject metadata = new JsonObject();
      metadata.addProperty("uid", uid);
      patch.add("metadata", metadata);
    }
    patch.add("status", status);
    return MergePatch.apply(
        V1Pod.class,
        client,
        patch.toString(),
        body -> core.patchNamespacedPodStatus(name, namespace, body).buildCall(null));
  }

  private V1Pod read(String namespace, String name) {
    try {
      return core.readNamespacedPod(name, namespace).execute();
    } catch (ApiException e) {
      throw new IllegalStateException(
          "cannot read pod " + namespace + "/" + name + ": " + e.getResponseBody(), e);
    }
  }

  private static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
