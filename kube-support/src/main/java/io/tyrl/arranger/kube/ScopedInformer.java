package io.tyrl.arranger.kube;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One kind of namespaced object, watched in the {@link WatchScope}: one informer for all
 * namespaces, or one per namespace of the scope (the API has no list over a set of namespaces, and
 * a namespaced Role allows no cluster-wide list). Reads go to the informer of the object's
 * namespace; lists join them.
 *
 * <p>Client-java's factory holds one informer per object class, so each namespace's informer gets a
 * factory of its own ({@link #factories()}, to be started and stopped with the service's).
 */
public final class ScopedInformer<T extends KubernetesObject> {

  private static final String ALL = "";

  private final Map<String, SharedIndexInformer<T>> byNamespace;
  private final List<SharedInformerFactory> factories;

  private ScopedInformer(
      Map<String, SharedIndexInformer<T>> byNamespace, List<SharedInformerFactory> factories) {
    this.byNamespace = Map.copyOf(byNamespace);
    this.factories = List.copyOf(factories);
  }

  /**
   * @param create registers the informer on the factory for a namespace ({@code ""} for all of
   *     them)
   */
  public static <T extends KubernetesObject> ScopedInformer<T> create(
      WatchScope scope,
      SharedInformerFactory shared,
      ApiClient informerClient,
      BiFunction<SharedInformerFactory, String, SharedIndexInformer<T>> create) {
    Map<String, SharedIndexInformer<T>> informers = new LinkedHashMap<>();
    List<SharedInformerFactory> own = new ArrayList<>();
    if (scope.watchesAllNamespaces()) {
      informers.put(ALL, create.apply(shared, ALL));
    } else {
      for (String namespace : scope.namespaces()) {
        SharedInformerFactory factory = new SharedInformerFactory(informerClient);
        own.add(factory);
        informers.put(namespace, create.apply(factory, namespace));
      }
    }
    return new ScopedInformer<>(informers, own);
  }

  /** The factories made for single namespaces; empty when one informer watches all namespaces. */
  public List<SharedInformerFactory> factories() {
    return factories;
  }

  public void addEventHandler(ResourceEventHandler<T> handler) {
    byNamespace.values().forEach(informer -> informer.addEventHandler(handler));
  }

  /** Must run before the informers start. */
  public void addIndexers(Map<String, Function<T, List<String>>> indexers) {
    byNamespace.values().forEach(informer -> informer.addIndexers(indexers));
  }

  public boolean hasSynced() {
    return byNamespace.values().stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /**
   * The cached object of key {@code namespace/name}; null when it is not cached or outside the
   * scope.
   */
  public T getByKey(String key) {
    SharedIndexInformer<T> informer = informerFor(key);
    return informer == null ? null : informer.getIndexer().getByKey(key);
  }

  public List<T> list() {
    if (byNamespace.size() == 1) {
      return byNamespace.values().iterator().next().getIndexer().list();
    }
    List<T> all = new ArrayList<>();
    byNamespace.values().forEach(informer -> all.addAll(informer.getIndexer().list()));
    return all;
  }

  public List<String> listKeys() {
    List<String> keys = new ArrayList<>();
    byNamespace.values().forEach(informer -> keys.addAll(informer.getIndexer().listKeys()));
    return keys;
  }

  public List<T> byIndex(String index, String value) {
    List<T> found = new ArrayList<>();
    byNamespace
        .values()
        .forEach(informer -> found.addAll(informer.getIndexer().byIndex(index, value)));
    return found;
  }

  private SharedIndexInformer<T> informerFor(String key) {
    SharedIndexInformer<T> all = byNamespace.get(ALL);
    if (all != null) {
      return all;
    }
    int slash = key.indexOf('/');
    return slash < 0 ? null : byNamespace.get(key.substring(0, slash));
  }
}
