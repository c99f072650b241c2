package io.tyrl.arranger.testing;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.contract.PodLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays the kubelet of every simulated node (label {@code arranger.tyrl.io/simulated=true}): a pod
 * bound to such a node runs after {@code startDelay}; an Arranger leader pod (label {@code
 * arranger.tyrl.io/role=leader}) then succeeds after {@code leaderRunTime}, as a training run that
 * finishes; other pods run until deleted. A pod being deleted is removed at once, as a kubelet
 * confirms a graceful deletion — without that, a bound pod would stay Terminating forever. Like a
 * kubelet, it ends and removes only the pod it ran (its uid), never a later pod of the same name.
 * GPU devices are handed out as the device plugin would ({@link SimulatedGpuDevices}): a GPU
 * reservation pod writes its device's ID into its annotation once it runs, and a pod whose GPU
 * share its node cannot honour is refused. A pod whose image comes from {@link
 * #UNPULLABLE_REGISTRY} never starts.
 */
public final class SimulatedNodeAgent implements AutoCloseable {

  public static final String SIMULATED_LABEL = "arranger.tyrl.io/simulated";
  public static final String ROLE_LABEL = PodLabels.ROLE;

  /**
   * Images from this registry cannot be pulled: their pods stay Pending in {@code
   * ImagePullBackOff}. The {@code .invalid} domain never resolves, so a real node fails the same.
   */
  public static final String UNPULLABLE_REGISTRY = "unreachable.invalid/";

  /** How long pods take: to start, and for a leader, to finish. */
  public record Timing(Duration startDelay, Duration leaderRunTime) {}

  private final SharedInformerFactory nodeFactory;
  private final SharedInformerFactory podFactory;
  private final SharedIndexInformer<V1Node> nodes;
  private final SimulatedKubelet kubelet;
  private final Timing timing;
  private final ScheduledExecutorService executor =
      Executors.newScheduledThreadPool(
          2,
          runnable -> {
            Thread thread = new Thread(runnable, "simulated-kubelet");
            thread.setDaemon(true);
            return thread;
          });
  private final Set<String> handled = ConcurrentHashMap.newKeySet();
  private final SimulatedGpuDevices gpus = new SimulatedGpuDevices();
  private static final Duration RETRY_FOR = Duration.ofMinutes(3);
  private static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(250);
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);

  public SimulatedNodeAgent(ApiClient informerClient, ApiClient client, Timing timing) {
    this.kubelet = new SimulatedKubelet(client);
    this.timing = timing;
    // Nodes first: a pod is only recognised as simulated once its node is in the cache.
    this.nodeFactory = new SharedInformerFactory(informerClient);
    this.podFactory = new SharedInformerFactory(informerClient);
    this.nodes =
        nodeFactory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                V1Node.class, V1NodeList.class, "", "v1", "nodes", informerClient),
            V1Node.class,
            0);
    SharedIndexInformer<V1Pod> pods =
        podFactory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                V1Pod.class, V1PodList.class, "", "v1", "pods", informerClient),
            V1Pod.class,
            0);
    pods.addEventHandler(
        new ResourceEventHandler<>() {
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
            gpus.release(pod);
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
        executor.execute(() -> confirmDeletion(namespace, name, uid));
      }
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      gpus.release(pod);
      return;
    }
    if ((phase == null || "Pending".equals(phase)) && handled.add(uid)) {
      executor.schedule(
          () -> admitAndRun(pod), timing.startDelay().toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private boolean onSimulatedNode(String nodeName) {
    V1Node node = nodes.getIndexer().getByKey(nodeName);
    Map<String, String> labels = node == null ? null : node.getMetadata().getLabels();
    return labels != null && "true".equals(labels.get(SIMULATED_LABEL));
  }

  private static boolean isLeader(V1Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels != null && PodLabels.LEADER.equals(labels.get(ROLE_LABEL));
  }

  /** Every pod refused so far for a GPU share its node could not honour. */
  public List<String> gpuShareRefusals() {
    return gpus.refusals();
  }

  private void admitAndRun(V1Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    String node = pod.getSpec().getNodeName();
    if (pod.getSpec().getContainers().stream()
        .anyMatch(c -> c.getImage() != null && c.getImage().startsWith(UNPULLABLE_REGISTRY))) {
      retrying(
          "back off pulling " + namespace + "/" + name,
          () -> kubelet.backOffPullingImage(namespace, name),
          () -> {});
      return;
    }
    Optional<String> refusal = gpus.admit(pod, node, gpusOf(node));
    if (refusal.isPresent()) {
      retrying(
          "refuse " + namespace + "/" + name,
          () -> kubelet.reject(namespace, name, SimulatedGpuDevices.REFUSAL),
          () -> {});
      return;
    }
    Optional<String> reservedId = gpus.reservedId(pod);
    run(namespace, name, pod.getMetadata().getUid(), isLeader(pod));
    reservedId.ifPresent(
        id ->
            retrying(
                "annotate " + namespace + "/" + name,
                () -> kubelet.annotate(namespace, name, GpuShareDevices.DEVICE_ID_ANNOTATION, id),
                () -> {}));
  }

  private int gpusOf(String nodeName) {
    V1Node node = nodes.getIndexer().getByKey(nodeName);
    Quantity gpus =
        node == null || node.getStatus() == null || node.getStatus().getAllocatable() == null
            ? null
            : node.getStatus().getAllocatable().get(GpuFraction.GPU_RESOURCE);
    return gpus == null ? 0 : gpus.getNumber().intValue();
  }

  private void run(String namespace, String name, String uid, boolean leader) {
    retrying(
        "run " + namespace + "/" + name,
        () -> kubelet.run(namespace, name),
        () -> {
          if (leader) {
            executor.schedule(
                () ->
                    retrying(
                        "succeed " + namespace + "/" + name,
                        () -> kubelet.succeed(namespace, name, uid),
                        () -> {}),
                timing.leaderRunTime().toMillis(),
                TimeUnit.MILLISECONDS);
          }
        });
  }

  private void confirmDeletion(String namespace, String name, String uid) {
    retrying(
        "remove " + namespace + "/" + name,
        () -> kubelet.confirmDeletion(namespace, name, uid),
        () -> {});
  }

  /**
   * Runs a kubelet action, then {@code next}. A pod deleted meanwhile is not an error. Any other
   * failure (the API server stopped or frozen, a timeout) is retried with backoff for a bounded
   * time, as a kubelet keeps reporting a pod's status until it gets through: a status lost during
   * an outage would otherwise leave its job running forever.
   */
  private void retrying(String what, Runnable action, Runnable next) {
    retrying(
        what, action, next, System.nanoTime() + RETRY_FOR.toNanos(), FIRST_RETRY_DELAY.toMillis());
  }

  private void retrying(
      String what, Runnable action, Runnable next, long deadlineNanos, long delayMillis) {
    try {
      action.run();
    } catch (RuntimeException e) {
      if (isNotFound(e)) {
        return;
      }
      if (System.nanoTime() > deadlineNanos) {
        System.err.println(
            "[simulated-kubelet] gave up after "
                + RETRY_FOR.toSeconds()
                + " s: "
                + what
                + ": "
                + e);
        return;
      }
      try {
        executor.schedule(
            () ->
                retrying(
                    what,
                    action,
                    next,
                    deadlineNanos,
                    Math.min(delayMillis * 2, MAX_RETRY_DELAY.toMillis())),
            delayMillis,
            TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closed) {
        // The agent is closing: nothing is left to report to.
      }
      return;
    }
    next.run();
  }

  private static boolean isNotFound(RuntimeException e) {
    if (e.getCause() instanceof ApiException api && api.getCode() == 404) {
      return true;
    }
    String message = String.valueOf(e.getMessage());
    return message.contains("HTTP 404") || message.contains("not found");
  }

  @Override
  public void close() {
    podFactory.stopAllRegisteredInformers();
    nodeFactory.stopAllRegisteredInformers();
    executor.shutdownNow();
  }
}
