package io.tyrl.arranger.crd;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1QueueList;
import io.tyrl.arranger.model.V1alpha1QueueSpec;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobList;
import java.util.List;

/** Coordinates of Arranger's custom resources, and typed clients for them. */
public final class ArrangerResources {

  public static final String GROUP = "arranger.tyrl.io";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String TYJOB_KIND = "TYJob";
  public static final String TYJOBS = "tyjobs";
  public static final String QUEUE_KIND = "Queue";
  public static final String QUEUES = "queues";

  /** The CRD files as classpath resources, the same files the Helm chart installs. */
  public static final List<String> CRD_RESOURCES =
      List.of("crds/" + TYJOBS + "." + GROUP + ".yaml", "crds/" + QUEUES + "." + GROUP + ".yaml");

  private ArrangerResources() {}

  public static GenericKubernetesApi<V1alpha1TYJob, V1alpha1TYJobList> tyJobs(ApiClient client) {
    return new GenericKubernetesApi<>(
        V1alpha1TYJob.class, V1alpha1TYJobList.class, GROUP, VERSION, TYJOBS, client);
  }

  public static GenericKubernetesApi<V1alpha1Queue, V1alpha1QueueList> queues(ApiClient client) {
    return new GenericKubernetesApi<>(
        V1alpha1Queue.class, V1alpha1QueueList.class, GROUP, VERSION, QUEUES, client);
  }

  /**
   * Creates the Queue with the CRD's defaults unless it exists.
   *
   * @return true if this call created it
   */
  public static boolean createQueueIfMissing(ApiClient client, String name) {
    V1alpha1Queue queue =
        new V1alpha1Queue()
            .apiVersion(API_VERSION)
            .kind(QUEUE_KIND)
            .metadata(new V1ObjectMeta().name(name))
            .spec(new V1alpha1QueueSpec().weight(1).reclaimable(true));
    KubernetesApiResponse<V1alpha1Queue> created = queues(client).create(queue);
    if (created.isSuccess()) {
      return true;
    }
    if (created.getHttpStatusCode() == 409) {
      return false;
    }
    throw new IllegalStateException(
        "cannot create Queue "
            + name
            + " (HTTP "
            + created.getHttpStatusCode()
            + "): "
            + (created.getStatus() == null ? "no status" : created.getStatus().getMessage()));
  }
}
