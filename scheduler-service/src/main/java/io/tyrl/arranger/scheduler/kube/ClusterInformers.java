package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.kube.ReadinessCheck;
import io.tyrl.arranger.kube.ScopedInformer;
import io.tyrl.arranger.kube.WatchScope;
import io.tyrl.arranger.kube.informer.ModelListerWatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's cache: informers on Nodes, all Pods (pods Arranger does not own use capacity
 * too), TYJobs and Queues, registered on the service's informer factory. TYJobs are watched in the
 * {@link WatchScope} only; pods in every namespace, since any pod bound to a node takes its room.
 *
 * <p>TYJobs and Queues are watched as raw objects and decoded one by one when a snapshot is taken:
 * with a typed informer, one object the model refuses fails the whole list, and with it every job
 * in the cluster. Here such an object is reported and the others are scheduled. Client-java's
 * informer factory keeps one informer per object class, and both raw informers have the same class
 * ({@link DynamicKubernetesObject}): the Queues' informer lives in a factory of its own ({@link
 * #queueFactory()}), started and stopped beside the service's.
 */
public final class ClusterInformers implements ReadinessCheck {

  private static final Logger log = LoggerFactory.getLogger(ClusterInformers.class);

  /**
   * A Queue the model refuses, or with a value the core cannot take ({@link QueueReader}); jobs in
   * it wait as in a queue that does not exist.
   */
  public record UnreadableQueue(String name, String problem) {}

  /**
   * A Queue as cached: its UID (what its Events name), its resourceVersion, its status as stored
   * (null when it has none), and the value of its usage-reset annotation (null when it has none).
   */
  public record ObservedQueue(
      String name, String uid, String resourceVersion, JsonObject status, String usageReset) {

    /** A Queue without the usage-reset annotation. */
    public ObservedQueue(String name, String uid, String resourceVersion, JsonObject status) {
      this(name, uid, resourceVersion, status, null);
    }
  }

  /** What the cache holds now, decoded, with the assumed statuses laid over it. */
  public record Contents(
      SnapshotAssembler.Assembly assembly, List<UnreadableQueue> unreadableQueues) {}

  private final SharedIndexInformer<V1Node> nodes;
  private final SharedIndexInformer<V1Pod> pods;
  private final ScopedInformer<DynamicKubernetesObject> jobs;
  private final SharedIndexInformer<DynamicKubernetesObject> queues;
  private final SharedInformerFactory queueFactory;
  private final TYJobDecoder jobDecoder;
  private final VersionedMemo<TYJobDecoder.Decoded> decodeMemo = new VersionedMemo<>();
  private final SnapshotAssembler.Memo snapshotMemo = new SnapshotAssembler.Memo();
  private final Gson gson;

  public ClusterInformers(
      SharedInformerFactory factory, ApiClient informerClient, Duration resync) {
    this(factory, informerClient, resync, WatchScope.allNamespaces());
  }

  public ClusterInformers(
      SharedInformerFactory factory, ApiClient informerClient, Duration resync, WatchScope scope) {
    long resyncMillis = resync.toMillis();
    // Pods and nodes are most of what the informers decode: read straight from the stream
    // (ModelGson).
    CoreV1Api core = new CoreV1Api(informerClient);
    nodes =
        factory.sharedIndexInformerFor(
            ModelListerWatcher.nodes(informerClient), V1Node.class, resyncMillis);
    pods =
        factory.sharedIndexInformerFor(
            new ModelListerWatcher<>(
                params ->
                    core.listPodForAllNamespaces()
                        .resourceVersion(params.resourceVersion)
                        .watch(params.watch)
                        .timeoutSeconds(params.timeoutSeconds)
                        .buildCall(null),
                V1Pod.class,
                V1PodList.class),
            V1Pod.class,
            resyncMillis);
    DynamicKubernetesApi tyJobs =
        new DynamicKubernetesApi(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.TYJOBS,
            informerClient);
    jobs =
        ScopedInformer.create(
            scope,
            factory,
            informerClient,
            (namespaceFactory, namespace) ->
                namespaceFactory.sharedIndexInformerFor(
                    tyJobs, DynamicKubernetesObject.class, resyncMillis, namespace));
    queueFactory = new SharedInformerFactory(informerClient);
    queues =
        queueFactory.sharedIndexInformerFor(
            new DynamicKubernetesApi(
                ArrangerResources.GROUP,
                ArrangerResources.VERSION,
                ArrangerResources.QUEUES,
                informerClient),
            DynamicKubernetesObject.class,
            resyncMillis);
    gson = informerClient.getJSON().getGson();
    jobDecoder = new TYJobDecoder(gson);
  }

  /** Objects each informer's cache holds, by resource, for the informer gauge. */
  public Map<String, IntSupplier> cachedObjects() {
    return Map.of(
        "pods", () -> pods.getIndexer().listKeys().size(),
        "nodes", () -> nodes.getIndexer().listKeys().size(),
        "tyjobs", () -> jobs.listKeys().size(),
        "queues", () -> queues.getIndexer().listKeys().size());
  }

  /**
   * Each list is a consistent copy of its informer's store; each TYJob is seen through {@code
   * assumed}. A TYJob, pod or node unchanged since the last call (same resourceVersion) is not
   * decoded again.
   */
  public synchronized Contents contents(AssumedStatuses assumed, Instant now) {
    List<TYJobDecoder.Decoded> decodedJobs = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (DynamicKubernetesObject raw : jobs.list()) {
      TYJobDecoder.Decoded decoded = decoded(raw);
      String key = decoded.key();
      keys.add(key);
      decodedJobs.add(
          new TYJobDecoder.Decoded(assumed.view(key, decoded.job(), now), decoded.problem()));
    }
    assumed.retainOnly(keys);
    decodeMemo.sweep();
    QueueReader.Read queueRead =
        QueueReader.readAll(
            queues.getIndexer().list().stream().map(DynamicKubernetesObject::getRaw).toList(),
            gson);
    SnapshotAssembler.Assembly assembly =
        SnapshotAssembler.assembleDecoded(
            nodes.getIndexer().list(),
            pods.getIndexer().list(),
            decodedJobs,
            queueRead.queues(),
            now,
            snapshotMemo);
    if (!queueRead.unreadable().isEmpty()) {
      log.debug("unreadable queues left out of the snapshot: {}", queueRead.unreadable());
    }
    return new Contents(assembly, queueRead.unreadable());
  }

  /**
   * Read from the raw JSON: {@code getMetadata()} would decode the whole metadata on every call.
   */
  private TYJobDecoder.Decoded decoded(DynamicKubernetesObject raw) {
    JsonObject metadata = TYJobDecoder.object(raw.getRaw(), "metadata");
    String name = metadata == null ? null : TYJobDecoder.string(metadata, "name");
    String version = metadata == null ? null : TYJobDecoder.string(metadata, "resourceVersion");
    if (name == null || version == null) {
      return jobDecoder.decode(raw.getRaw());
    }
    return decodeMemo.get(
        TYJobDecoder.string(metadata, "namespace") + "/" + name,
        version,
        () -> jobDecoder.decode(raw.getRaw()));
  }

  /**
   * Calls {@code change} on every watched change that may let a job be placed ({@link
   * CycleTriggers}).
   */
  public void onChangeThatMayPlace(Runnable change) {
    nodes.addEventHandler(CycleTriggers.handler(true, CycleTriggers::nodeRoomChanged, change));
    pods.addEventHandler(CycleTriggers.handler(false, CycleTriggers::podFreesRoom, change));
    jobs.addEventHandler(CycleTriggers.handler(true, CycleTriggers::jobChanged, change));
    queues.addEventHandler(CycleTriggers.handler(true, CycleTriggers::queueSpecChanged, change));
  }

  /** The factory of the Queues' informer, to be started and stopped with the service's. */
  public SharedInformerFactory queueFactory() {
    return queueFactory;
  }

  /**
   * The factories of the TYJobs' per-namespace informers in the namespaced mode; empty otherwise.
   */
  public List<SharedInformerFactory> namespacedFactories() {
    return jobs.factories();
  }

  /** The UID of a pod as cached, to record which pod a victim entry means. */
  public Optional<String> podUid(String namespace, String name) {
    V1Pod pod = pods.getIndexer().getByKey(namespace + "/" + name);
    return pod == null ? Optional.empty() : Optional.ofNullable(pod.getMetadata().getUid());
  }

  /** Every cached Queue, readable or not, by name: what its status says now. */
  public Map<String, ObservedQueue> observedQueues() {
    Map<String, ObservedQueue> observed = new HashMap<>();
    for (DynamicKubernetesObject raw : queues.getIndexer().list()) {
      if (raw.getMetadata() == null || raw.getMetadata().getName() == null) {
        continue;
      }
      JsonElement status = raw.getRaw().get("status");
      observed.put(
          raw.getMetadata().getName(),
          new ObservedQueue(
              raw.getMetadata().getName(),
              raw.getMetadata().getUid(),
              raw.getMetadata().getResourceVersion(),
              status != null && status.isJsonObject() ? status.getAsJsonObject() : null,
              raw.getMetadata().getAnnotations() == null
                  ? null
                  : raw.getMetadata()
                      .getAnnotations()
                      .get(QueueStatusFields.RESET_USAGE_ANNOTATION)));
    }
    return observed;
  }

  public boolean hasQueue(String name) {
    return queues.getIndexer().getByKey(name) != null;
  }

  @Override
  public String name() {
    return "scheduler informers (nodes, pods, TYJobs, Queues) synced";
  }

  @Override
  public boolean ready() {
    return nodes.hasSynced() && pods.hasSynced() && jobs.hasSynced() && queues.hasSynced();
  }
}
