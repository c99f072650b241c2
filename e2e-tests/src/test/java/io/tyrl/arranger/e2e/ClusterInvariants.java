package io.tyrl.arranger.e2e;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the cluster while the services work and records every violation of the two promises the
 * end-to-end test checks, computed from the objects themselves, not from either service's books: no
 * node is over-committed (from the pods' specs) and no gang starts below its minimum.
 */
final class ClusterInvariants implements AutoCloseable {

  private final CoreV1Api core;
  private final ApiClient client;
  private final String namespace;
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
  private volatile int samples;

  ClusterInvariants(ApiClient client, String namespace) {
    this.client = client;
    this.core = new CoreV1Api(client);
    this.namespace = namespace;
  }

  ClusterInvariants start() {
    sampler.scheduleWithFixedDelay(this::sample, 0, 300, TimeUnit.MILLISECONDS);
    return this;
  }

  List<String> violations() {
    return List.copyOf(violations);
  }

  int samples() {
    return samples;
  }

  private void sample() {
    try {
      checkNodes();
      checkGangs();
      samples++;
    } catch (Exception e) {
      // A failed read is not a violation; the next sample reads again.
    }
  }

  private void checkNodes() throws Exception {
    Map<String, Map<String, BigDecimal>> used = new HashMap<>();
    for (V1Pod pod : core.listPodForAllNamespaces().execute().getItems()) {
      String node = pod.getSpec().getNodeName();
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (node == null || "Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      Map<String, BigDecimal> onNode = used.computeIfAbsent(node, n -> new HashMap<>());
      for (V1Container container : pod.getSpec().getContainers()) {
        if (container.getResources() != null && container.getResources().getRequests() != null) {
          container
              .getResources()
              .getRequests()
              .forEach(
                  (resource, quantity) ->
                      onNode.merge(resource, quantity.getNumber(), BigDecimal::add));
        }
      }
    }
    for (V1Node node : core.listNode().execute().getItems()) {
      Map<String, Quantity> allocatable = node.getStatus().getAllocatable();
      Map<String, BigDecimal> onNode = used.getOrDefault(node.getMetadata().getName(), Map.of());
      onNode.forEach(
          (resource, amount) -> {
            Quantity capacity = allocatable.get(resource);
            if (capacity == null || amount.compareTo(capacity.getNumber()) > 0) {
              violations.add(
                  "node "
                      + node.getMetadata().getName()
                      + " over-committed on "
                      + resource
                      + ": "
                      + amount
                      + " > "
                      + (capacity == null ? "0" : capacity.getNumber()));
            }
          });
    }
  }

  private void checkGangs() throws Exception {
    for (V1alpha1TYJob job :
        ArrangerResources.tyJobs(client)
            .list(namespace)
            .throwsApiException()
            .getObject()
            .getItems()) {
      if (job.getStatus() == null || job.getStatus().getStage() == null) {
        continue;
      }
      String stage = job.getStatus().getStage().getValue();
      if (!stage.equals("Starting") && !stage.equals("Running")) {
        continue;
      }
      int minimum =
          1 + (job.getSpec().getMinWorkersNum() == null ? 1 : job.getSpec().getMinWorkersNum());
      int placed =
          job.getStatus().getAllocations() == null ? 0 : job.getStatus().getAllocations().size();
      if (placed < minimum) {
        violations.add(
            "job "
                + job.getMetadata().getName()
                + " is "
                + stage
                + " with "
                + placed
                + " pods placed, below its minimum "
                + minimum);
      }
    }
  }

  @Override
  public void close() {
    sampler.shutdownNow();
  }
}
