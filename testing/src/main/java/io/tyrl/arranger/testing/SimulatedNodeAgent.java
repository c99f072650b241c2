package io.tyrl.arranger.testing;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays the kubelet of every simulated node (label {@code arranger.tyrl.io/simulated=true}): a pod
 * bound to such a node runs after {@code startDelay}; an Arranger leader pod (label
 * {@code arranger.tyrl.io/role=leader}) then succeeds after {@code leaderRunTime}, as a training run
 * that finishes; other pods run until deleted. A pod being deleted is removed at once, as a kubelet
 * confirms a graceful deletion — without that, a bound pod would stay Terminating forever.
 */
public final class SimulatedNodeAgent implements AutoCloseable {

  public static final String SIMULATED_LABEL = "arranger.tyrl.io/simulated";
  public static final String ROLE_LABEL = "arranger.tyrl.io/role";

  /** How long pods take: to start, and for a leader, to finish. */
  public record Timing(Duration startDelay, Duration leaderRunTime) {}

  private final SharedInformerFactory nodeFactory;
  private final SharedInformerFactory podFactory;
  private final SharedIndexInformer<V1Node> nodes;
  private final SimulatedKubelet kubelet;
  private final Timing timing;
  private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2, runnable -> {
    Thread thread = new Thread(runnable, "simulated-kubelet");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<String> handled = ConcurrentHashMap.newKeySet();

  public SimulatedNodeAgent(ApiClient informerClient, ApiClient client, Timing timing) {
    this.kubelet = new SimulatedKubelet(client);
    this.timing = timing;
    // Nodes first: a pod is only recognised as simulated once its node is in the cache.
    this.nodeFactory = new SharedInformerFactory(informerClient);
    this.podFactory = new SharedInformerFactory(informerClient);
    this.nodes = nodeFactory.sharedIndexInformerFor(
        new GenericKubernetesApi<>(V1Node.class, V1NodeList.class, "", "v1", "nodes", informerClient),
        V1Node.class, 0);
    SharedIndexInformer<V1Pod> pods = podFactory.sharedIndexInformerFor(
        new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", informerClient),
        V1Pod.class, 0);
    pods.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1Pod pod) {
        observe(pod);
      }

      @Override
      public void onUpdate(V1Pod before, V1Pod after) {
        observe(after);
      }

      @Override
      public void onDelete(V1Pod pod, boolean finalStateUnknown) {
        handled.remove(pod.getMetadata().getUid());
        handled.remove(pod.getMetadata().getUid() + "/deleting");
      }
    });
  }

  public SimulatedNodeAgent start() {
    nodeFactory.startAllRegisteredInformers();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!nodes.hasSynced()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the node informer did not sync within 30 s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the simulated kubelet", e);
      }
    }
    podFactory.startAllRegisteredInformers();
    return this;
  }

  private void observe(V1Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (node == null || !onSimulatedNode(node)) {
      return;
    }
    String uid = pod.getMetadata().getUid();
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      if (handled.add(uid + "/deleting")) {
        executor.execute(() -> confirmDeletion(namespace, name));
      }
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ((phase == null || "Pending".equals(phase)) && handled.add(uid)) {
      executor.schedule(() -> run(namespace, name, isLeader(pod)), timing.startDelay().toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private boolean onSimulatedNode(String nodeName) {
    V1Node node = nodes.getIndexer().getByKey(nodeName);
    Map<String, String> labels = node == null ? null : node.getMetadata().getLabels();
    return labels != null && "true".equals(labels.get(SIMULATED_LABEL));
  }

  private static boolean isLeader(V1Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels != null && "leader".equals(labels.get(ROLE_LABEL));
  }

  private void run(String namespace, String name, boolean leader) {
    if (!attempt(() -> kubelet.run(namespace, name))) {
      return;
    }
    if (leader) {
      executor.schedule(() -> attempt(() -> kubelet.succeed(namespace, name)), timing.leaderRunTime().toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private void confirmDeletion(String namespace, String name) {
    attempt(() -> kubelet.confirmDeletion(namespace, name));
  }

  /** A pod deleted meanwhile is not an error; anything else is reported, and the pod is left as it is. */
  private static boolean attempt(Runnable action) {
    try {
      action.run();
      return true;
    } catch (IllegalStateException e) {
      if (!String.valueOf(e.getMessage()).contains("HTTP 404") && !String.valueOf(e.getMessage()).contains("not found")) {
        System.err.println("[simulated-kubelet] " + e.getMessage());
      }
      return false;
    }
  }

  @Override
  public void close() {
    podFactory.stopAllRegisteredInformers();
    nodeFactory.stopAllRegisteredInformers();
    executor.shutdownNow();
  }
}
