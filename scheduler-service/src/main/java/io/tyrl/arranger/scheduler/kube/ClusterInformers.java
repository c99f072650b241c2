package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.ReadinessCheck;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import java.time.Duration;

/**
 * The scheduler's cache: informers on Nodes, all Pods (pods Arranger does not own use capacity
 * too), TYJobs and Queues, registered on the service's informer factory.
 */
public final class ClusterInformers implements ReadinessCheck {

  private final SharedIndexInformer<V1Node> nodes;
  private final SharedIndexInformer<V1Pod> pods;
  private final SharedIndexInformer<V1alpha1TYJob> jobs;
  private final SharedIndexInformer<V1alpha1Queue> queues;

  public ClusterInformers(SharedInformerFactory factory, ApiClient informerClient, Duration resync) {
    long resyncMillis = resync.toMillis();
    nodes = factory.sharedIndexInformerFor(
        new GenericKubernetesApi<>(V1Node.class, V1NodeList.class, "", "v1", "nodes", informerClient),
        V1Node.class, resyncMillis);
    pods = factory.sharedIndexInformerFor(
        new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", informerClient),
        V1Pod.class, resyncMillis);
    jobs = factory.sharedIndexInformerFor(ArrangerResources.tyJobs(informerClient), V1alpha1TYJob.class, resyncMillis);
    queues = factory.sharedIndexInformerFor(ArrangerResources.queues(informerClient), V1alpha1Queue.class, resyncMillis);
  }

  /** What the cache holds now; each list is a consistent copy of its informer's store. */
  public SnapshotAssembler.Assembly assemble() {
    return SnapshotAssembler.assemble(nodes.getIndexer().list(), pods.getIndexer().list(), jobs.getIndexer().list(),
        queues.getIndexer().list());
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
