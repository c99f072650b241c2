package io.tyrl.arranger.e2e;

import static org.awaitility.Awaitility.await;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.CustomResourceDefinitions;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A control plane of its own with both services from their jars in the scheduler's default
 * configuration, for the tenancy scenarios. Its own, not the test JVM's shared one: each queue's
 * share is computed over every node and every queue's demand in the cluster, so nodes, queues and
 * jobs other tests leave behind would change the very numbers these tests assert.
 *
 * <p>Pods of the jobs namespace are watched from the start, so that every pod deleted during a
 * scenario is known, not only those a poll happened to see.
 */
final class TenancyCluster implements AutoCloseable {

  static final String JOBS_NAMESPACE = "tenancy-jobs";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  /** The scheduler's period: the one a user runs with (the service's application.yaml). */
  static final Duration SCHEDULER_PERIOD = Duration.ofSeconds(1);

  private static final String CYCLE_COUNT = "arranger_scheduler_cycle_duration_seconds_count";

  private final List<AutoCloseable> opened = new ArrayList<>();
  private final ControlPlane controlPlane;
  private final ApiClient admin;
  private ReplicaSet scheduler;
  private SimulatedNodeAgent kubelet;
  private String systemNamespace;
  private ReplicaSet controller;
  private final Map<String, String> deletedPods = new ConcurrentHashMap<>();

  private TenancyCluster(ControlPlane controlPlane) {
    this.controlPlane = controlPlane;
    this.admin = controlPlane.adminClient();
    opened.add(controlPlane);
  }

  /**
   * Starts the control plane, registers the nodes, starts a simulated kubelet whose leaders run far
   * longer than any scenario, and both services with the scheduler's built-in configuration (no
   * configuration property, no ConfigMap) and its default period.
   */
  static TenancyCluster start(String test, List<NodeSpec> nodes) throws Exception {
    return start(test, nodes, Duration.ofMinutes(30));
  }

  /**
   * @param leaderRunTime how long a leader pod runs before it succeeds (its job then ends)
   */
  static TenancyCluster start(String test, List<NodeSpec> nodes, Duration leaderRunTime)
      throws Exception {
    return start(test, nodes, leaderRunTime, Map.of());
  }

  /**
   * @param controllerProperties Spring properties the controller runs with beyond its defaults
   */
  static TenancyCluster start(
      String test,
      List<NodeSpec> nodes,
      Duration leaderRunTime,
      Map<String, String> controllerProperties)
      throws Exception {
    return start(test, nodes, leaderRunTime, controllerProperties, Map.of());
  }

  /**
   * @param schedulerProperties Spring properties the scheduler runs with beyond its defaults, e.g.
   *     {@code arranger.scheduler.configuration}
   */
  static TenancyCluster start(
      String test,
      List<NodeSpec> nodes,
      Duration leaderRunTime,
      Map<String, String> controllerProperties,
      Map<String, String> schedulerProperties)
      throws Exception {
    TenancyCluster cluster =
        new TenancyCluster(ControlPlane.start(KubeApiServerExtension.SERVICE_IDENTITIES));
    try {
      cluster.startServices(test, nodes, leaderRunTime, controllerProperties, schedulerProperties);
      return cluster;
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  private void startServices(
      String test,
      List<NodeSpec> nodes,
      Duration leaderRunTime,
      Map<String, String> controllerProperties,
      Map<String, String> schedulerProperties)
      throws Exception {
    CustomResourceDefinitions.install(admin);
    SimulatedNodes simulated = new SimulatedNodes(admin);
    E2eServices services =
        E2eServices.prepare(controlPlane, admin, simulated, test, JOBS_NAMESPACE, 0);
    for (NodeSpec node : nodes) {
      // Only nodes with this label have their pods run by the simulated kubelet.
      Map<String, String> labels = new TreeMap<>(node.labels());
      labels.put(SimulatedNodeAgent.SIMULATED_LABEL, "true");
      simulated.register(
          new NodeSpec(node.name(), node.capacity(), labels, node.taints(), node.ready()));
    }
    watchDeletedPods(services.watchClient());
    kubelet = services.kubelet(leaderRunTime);
    opened.add(kubelet);
    systemNamespace = services.systemNamespace();
    // The period a user runs with (the service's application.yaml), not the helper's shorter one.
    Map<String, String> schedulerRunsWith = new TreeMap<>(schedulerProperties);
    schedulerRunsWith.put("arranger.scheduler.period", SCHEDULER_PERIOD.toMillis() + "ms");
    scheduler =
        services
            .replicas("scheduler", LEASE_DURATION, RETRY_PERIOD, null, schedulerRunsWith)
            .start(1);
    opened.add(scheduler);
    controller =
        services
            .replicas("controller", LEASE_DURATION, RETRY_PERIOD, null, controllerProperties)
            .start(1);
    opened.add(controller);
    scheduler.awaitAllReady(Duration.ofMinutes(2));
    controller.awaitAllReady(Duration.ofMinutes(2));
  }

  private void watchDeletedPods(ApiClient watchClient) {
    SharedInformerFactory factory = new SharedInformerFactory(watchClient);
    SharedIndexInformer<V1Pod> pods =
        factory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", watchClient),
            V1Pod.class,
            0,
            JOBS_NAMESPACE);
    pods.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1Pod pod) {}

          @Override
          public void onUpdate(V1Pod before, V1Pod after) {}

          @Override
          public void onDelete(V1Pod pod, boolean finalStateUnknown) {
            deletedPods.put(pod.getMetadata().getName(), pod.getMetadata().getUid());
          }
        });
    factory.startAllRegisteredInformers();
    opened.add(factory::stopAllRegisteredInformers);
  }

  ApiClient admin() {
    return admin;
  }

  void queue(String name, int weight) throws ApiException {
    queue(name, Map.of("weight", weight));
  }

  /** A Queue with this spec, as a user's YAML would give it. */
  void queue(String name, Map<String, Object> spec) throws ApiException {
    new CustomObjectsApi(admin)
        .createClusterCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.QUEUES,
            Map.of(
                "apiVersion",
                ArrangerResources.API_VERSION,
                "kind",
                ArrangerResources.QUEUE_KIND,
                "metadata",
                Map.of("name", name),
                "spec",
                spec))
        .execute();
  }

  /** Scheduling cycles the scheduler has run so far, from its own cycle timer's count. */
  /** The scheduler's replicas (one), to fail it over. */
  ReplicaSet scheduler() {
    return scheduler;
  }

  /** The simulated kubelet, which plays every node's kubelet and GPU device plugin. */
  SimulatedNodeAgent kubelet() {
    return kubelet;
  }

  /** Where the services run, as the chart's release namespace (the GPU reservations' too). */
  String systemNamespace() {
    return systemNamespace;
  }

  long cycles() {
    ServiceProcess process = scheduler.replicas().get(0);
    HttpResponse<String> response = process.get("/actuator/prometheus");
    if (response == null || response.statusCode() != 200) {
      throw new IllegalStateException(
          "the scheduler's /actuator/prometheus did not answer: "
              + (response == null ? "no answer" : response.statusCode()));
    }
    return response
        .body()
        .lines()
        .filter(line -> line.startsWith(CYCLE_COUNT))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  /**
   * A job in the jobs' namespace: a learner and {@code actors} actors, each asking 1 cpu, 1Gi and
   * one GPU, {@code minimum} of the actors in its gang minimum.
   */
  static TYJobBuilder gpuJob(String name, String queue, int actors, int minimum) {
    return TYJobBuilder.named(name)
        .namespace(JOBS_NAMESPACE)
        .leader("learner", "1", "1Gi")
        .workers("actor", actors, "1", "1Gi")
        .everyContainerRequests(NodeSpec.GPU, "1")
        .set("minWorkersNum", minimum)
        .set("queue", queue);
  }

  /** The job as the API server has it now. */
  V1alpha1TYJob job(String name) throws ApiException {
    return ArrangerResources.tyJobs(admin)
        .get(JOBS_NAMESPACE, name)
        .throwsApiException()
        .getObject();
  }

  List<V1alpha1TYJob> jobs() throws ApiException {
    return ArrangerResources.tyJobs(admin)
        .list(JOBS_NAMESPACE)
        .throwsApiException()
        .getObject()
        .getItems();
  }

  /**
   * Waits until the pods placed per queue are {@code expected}, for at most {@code periods} of the
   * scheduler's periods, and returns the scheduler's cycle count when they were. The bound is in
   * periods, not in cycles counted: every pod that ends or is evicted starts a cycle when it begins
   * terminating and another when it is gone, so how many cycles pass while room frees depends on
   * how the kubelet spaces the ends (one run of {@code LateSecondQueueEndToEndIT} took 5 cycles,
   * another more than 11, its split the same). The core's multi-cycle tests bound the same
   * scenarios in periodic cycles. On a timeout the error shows each change of the split and of the
   * live pods, with the cycles and milliseconds since {@code sinceCycles}, so a late split shows
   * whether the decision or the pods were late.
   */
  long awaitPlacedByQueue(Map<String, Integer> expected, int periods, long sinceCycles) {
    SplitTimeline timeline = new SplitTimeline(sinceCycles);
    AtomicLong reachedAt = new AtomicLong();
    try {
      await("pods placed per queue " + expected + " within " + periods + " periods")
          .atMost(SCHEDULER_PERIOD.multipliedBy(periods))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                Map<String, Integer> split = placedPodsByQueue();
                long cycles = cycles();
                timeline.saw(cycles, split, livePodsByJob());
                reachedAt.set(cycles);
                return split.equals(expected);
              });
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "pods placed per queue did not reach "
              + expected
              + " within "
              + periods
              + " periods; "
              + timeline
              + jobsSummary(),
          e);
    }
    return reachedAt.get();
  }

  /** Each change of the pods placed per queue and of the live pods per job, as it was seen. */
  private static final class SplitTimeline {
    private final long sinceCycles;
    private final long sinceNanos = System.nanoTime();
    private final StringBuilder lines = new StringBuilder();
    private String last = "";

    SplitTimeline(long sinceCycles) {
      this.sinceCycles = sinceCycles;
    }

    void saw(long cycles, Map<String, Integer> split, Map<String, List<V1Pod>> livePods) {
      Map<String, Integer> live = new TreeMap<>();
      livePods.forEach((job, pods) -> live.put(job, pods.size()));
      String state = "placed " + split + ", live pods " + live;
      if (!state.equals(last)) {
        last = state;
        lines.append(
            String.format(
                "  cycle +%d, %d ms: %s%n",
                cycles - sinceCycles, (System.nanoTime() - sinceNanos) / 1_000_000, state));
      }
    }

    @Override
    public String toString() {
      return "what was seen:\n" + lines;
    }
  }

  /**
   * Pods placed per queue, from the scheduler's allocations in each job's status (every pod of the
   * scenarios requests one unit of the resource they count).
   */
  Map<String, Integer> placedPodsByQueue() throws ApiException {
    Map<String, Integer> byQueue = new TreeMap<>();
    for (V1alpha1TYJob job : jobs()) {
      Map<String, String> allocations =
          job.getStatus() == null ? null : job.getStatus().getAllocations();
      byQueue.merge(
          job.getSpec().getQueue(), allocations == null ? 0 : allocations.size(), Integer::sum);
    }
    return byQueue;
  }

  /** Live (bound, not deleted, not ended) pods of the jobs namespace per job. */
  Map<String, List<V1Pod>> livePodsByJob() throws ApiException {
    return new CoreV1Api(admin)
        .listNamespacedPod(JOBS_NAMESPACE).execute().getItems().stream()
            .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
            .filter(pod -> pod.getSpec().getNodeName() != null)
            .filter(
                pod ->
                    pod.getStatus() == null
                        || !List.of("Succeeded", "Failed").contains(pod.getStatus().getPhase()))
            .collect(
                Collectors.groupingBy(
                    pod -> pod.getMetadata().getLabels().get(PodLabels.JOB_NAME),
                    TreeMap::new,
                    Collectors.toList()));
  }

  /** A Queue's {@code status.allocated} of one resource, 0 when absent. */
  @SuppressWarnings("unchecked")
  BigDecimal queueAllocated(String queue, String resource) throws ApiException {
    Map<String, Object> object =
        (Map<String, Object>)
            new CustomObjectsApi(admin)
                .getClusterCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    ArrangerResources.QUEUES,
                    queue)
                .execute();
    Map<String, Object> status = (Map<String, Object>) object.get("status");
    Map<String, Object> allocated =
        status == null ? null : (Map<String, Object>) status.get("allocated");
    Object value = allocated == null ? null : allocated.get(resource);
    return value == null ? BigDecimal.ZERO : new Quantity(String.valueOf(value)).getNumber();
  }

  /** Pods of the jobs namespace deleted since the cluster started, by name, with their UIDs. */
  Map<String, String> deletedPods() {
    return Map.copyOf(deletedPods);
  }

  /** Each job's schedule state, reason and allocation count, for failure messages. */
  String jobsSummary() {
    try {
      return jobs().stream()
          .map(
              job ->
                  job.getMetadata().getName()
                      + " ["
                      + job.getSpec().getQueue()
                      + "] "
                      + (job.getStatus() == null
                          ? "no status"
                          : job.getStatus().getScheduleState()
                              + " placed="
                              + (job.getStatus().getAllocations() == null
                                  ? 0
                                  : job.getStatus().getAllocations().size())
                              + " "
                              + job.getStatus().getScheduling()))
          .collect(Collectors.joining("\n"));
    } catch (ApiException e) {
      return "(jobs unreadable: " + e.getCode() + ")";
    }
  }

  String schedulerLogTail() {
    return scheduler.replicas().get(0).logTail();
  }

  @Override
  public void close() {
    for (int i = opened.size() - 1; i >= 0; i--) {
      try {
        opened.get(i).close();
      } catch (Exception e) {
        System.err.println("[tenancy] closing " + opened.get(i) + " failed: " + e);
      }
    }
  }
}
