package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.tyrl.arranger.kube.ReadinessCheck;
import java.time.Duration;

/**
 * Follows one ConfigMap with an informer and hands its scheduler configuration key to the {@link
 * SchedulerConfigurationSource}. An informer rather than Spring Cloud Kubernetes' reload: the
 * scheduler reads the new text at its next cycle without refreshing any bean, and a refused text
 * never reaches the running configuration.
 *
 * <p>As a {@link ReadinessCheck} it passes once the informer has synced and the ConfigMap as cached
 * (if there is one) has been handed over: a leader never schedules its first cycle with the
 * built-in configuration while the operator's is still on its way.
 */
public final class ConfigMapWatcher implements ReadinessCheck {

  private final SharedIndexInformer<V1ConfigMap> informer;
  private final String cacheKey;
  private volatile String handledVersion;

  public ConfigMapWatcher(
      SharedInformerFactory factory,
      ApiClient informerClient,
      String namespace,
      String name,
      String key,
      SchedulerConfigurationSource source,
      Duration resync) {
    this.cacheKey = namespace + "/" + name;
    this.informer =
        factory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", informerClient),
            V1ConfigMap.class,
            resync.toMillis(),
            namespace);
    String origin = "ConfigMap " + namespace + "/" + name + " key " + key;
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1ConfigMap configMap) {
            accept(configMap);
          }

          @Override
          public void onUpdate(V1ConfigMap before, V1ConfigMap after) {
            String old = before.getData() == null ? null : before.getData().get(key);
            String now = after.getData() == null ? null : after.getData().get(key);
            if (now == null || !now.equals(old)) {
              accept(after);
            } else if (name.equals(after.getMetadata().getName())) {
              handledVersion = after.getMetadata().getResourceVersion();
            }
          }

          @Override
          public void onDelete(V1ConfigMap configMap, boolean finalStateUnknown) {
            if (name.equals(configMap.getMetadata().getName())) {
              source.revertToBase(origin + " deleted");
            }
          }

          private void accept(V1ConfigMap configMap) {
            if (!name.equals(configMap.getMetadata().getName())) {
              return;
            }
            String text = configMap.getData() == null ? null : configMap.getData().get(key);
            if (text == null) {
              source.revertToBase(origin + " missing");
            } else {
              source.offer(
                  text,
                  origin
                      + " (resourceVersion "
                      + configMap.getMetadata().getResourceVersion()
                      + ")");
            }
            handledVersion = configMap.getMetadata().getResourceVersion();
          }
        });
  }

  @Override
  public String name() {
    return "scheduler configuration ConfigMap " + cacheKey + " read";
  }

  @Override
  public boolean ready() {
    if (!informer.hasSynced()) {
      return false;
    }
    V1ConfigMap cached = informer.getIndexer().getByKey(cacheKey);
    // Handlers run after the store is filled: wait until the cached version has been handed over.
    return cached == null || cached.getMetadata().getResourceVersion().equals(handledVersion);
  }
}
