package io.tyrl.arranger.testing;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Taint;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Registers Nodes as a kubelet would: the Node object, then its status (capacity, allocatable, a
 * Ready condition, an address). The API server's admission taints every new node {@code
 * node.kubernetes.io/not-ready:NoSchedule}; with no node lifecycle controller here, the simulator
 * removes that taint itself once the node reports Ready.
 */
public final class SimulatedNodes {

  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  private static final AtomicInteger ADDRESSES = new AtomicInteger();

  private final ApiClient client;
  private final CoreV1Api core;
  private final JSON json = new JSON();

  public SimulatedNodes(ApiClient client) {
    this.client = client;
    this.core = new CoreV1Api(client);
  }

  public V1Node register(NodeSpec spec) {
    V1Node node =
        new V1Node()
            .metadata(new V1ObjectMeta().name(spec.name()).labels(spec.labels()))
            .spec(
                new V1NodeSpec()
                    .taints(spec.taints().isEmpty() ? null : new ArrayList<>(spec.taints())));
    try {
      core.createNode(node).execute();
    } catch (ApiException e) {
      throw new IllegalStateException(
          "cannot register node " + spec.name() + ": " + e.getResponseBody(), e);
    }
    reportStatus(spec.name(), spec, spec.ready());
    return spec.ready() ? clearNotReadyTaint(spec) : read(spec.name());
  }

  /** Reports the node NotReady, as a kubelet that stopped posting status would be marked. */
  public V1Node markNotReady(NodeSpec spec) {
    reportStatus(spec.name(), spec, false);
    return read(spec.name());
  }

  public void remove(String name) {
    try {
      core.deleteNode(name).execute();
    } catch (ApiException e) {
      if (e.getCode() != 404) {
        throw new IllegalStateException(
            "cannot delete node " + name + ": " + e.getResponseBody(), e);
      }
    }
  }

  public V1Node read(String name) {
    try {
      return core.readNode(name).execute();
    } catch (ApiException e) {
      throw new IllegalStateException("cannot read node " + name + ": " + e.getResponseBody(), e);
    }
  }

  private void reportStatus(String name, NodeSpec spec, boolean ready) {
    JsonObject resources = new JsonObject();
    spec.capacity().forEach(resources::addProperty);
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    JsonObject condition = new JsonObject();
    condition.addProperty("type", "Ready");
    condition.addProperty("status", ready ? "True" : "False");
    condition.addProperty("reason", ready ? "KubeletReady" : "KubeletNotReady");
    condition.addProperty(
        "message",
        ready ? "simulated kubelet is posting ready status" : "simulated kubelet stopped");
    condition.addProperty("lastHeartbeatTime", now);
    condition.addProperty("lastTransitionTime", now);
    JsonArray conditions = new JsonArray();
    conditions.add(condition);
    JsonObject address = new JsonObject();
    address.addProperty("type", "InternalIP");
    int n = ADDRESSES.incrementAndGet();
    address.addProperty("address", "127.2." + (n / 250) + "." + (n % 250 + 1));
    JsonArray addresses = new JsonArray();
    addresses.add(address);
    JsonObject status = new JsonObject();
    status.add("capacity", resources);
    status.add("allocatable", resources.deepCopy());
    status.add("conditions", conditions);
    status.add("addresses", addresses);
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    MergePatch.apply(
        V1Node.class,
        client,
        patch.toString(),
        body -> core.patchNodeStatus(name, body).buildCall(null));
  }

  private V1Node clearNotReadyTaint(NodeSpec spec) {
    V1Node current = read(spec.name());
    boolean tainted =
        current.getSpec() != null
            && current.getSpec().getTaints() != null
            && current.getSpec().getTaints().stream()
                .anyMatch(t -> NOT_READY_TAINT.equals(t.getKey()));
    if (!tainted) {
      return current;
    }
    // A merge patch replaces the whole list, so send exactly the node's own taints.
    JsonObject nodeSpec = new JsonObject();
    nodeSpec.add(
        "taints",
        spec.taints().isEmpty()
            ? com.google.gson.JsonNull.INSTANCE
            : json.getGson().toJsonTree(spec.taints().toArray(new V1Taint[0])));
    JsonObject patch = new JsonObject();
    patch.add("spec", nodeSpec);
    return MergePatch.apply(
        V1Node.class,
        client,
        patch.toString(),
        body -> core.patchNode(spec.name(), body).buildCall(null));
  }
}
