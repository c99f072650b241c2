package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod asks of its node, as kube-scheduler counts it: the sum of its containers' requests, at
 * least the largest init container's, plus the pod overhead.
 */
final class PodRequests {

  private PodRequests() {}

  static Resource of(V1PodSpec spec) {
    if (spec == null) {
      return Resource.EMPTY;
    }
    Resource containers = sum(spec.getContainers());
    Resource largestInit = Resource.EMPTY;
    for (V1Container init : nullToEmpty(spec.getInitContainers())) {
      largestInit = largestInit.max(requests(init));
    }
    return containers.max(largestInit).plus(quantities(spec.getOverhead()));
  }

  private static Resource sum(List<V1Container> containers) {
    Resource total = Resource.EMPTY;
    for (V1Container container : nullToEmpty(containers)) {
      total = total.plus(requests(container));
    }
    return total;
  }

  private static Resource requests(V1Container container) {
    if (container.getResources() == null) {
      return Resource.EMPTY;
    }
    Map<String, Quantity> requests = container.getResources().getRequests();
    // Kubernetes defaults a missing request to the limit.
    Map<String, Quantity> effective = new TreeMap<>();
    if (container.getResources().getLimits() != null) {
      effective.putAll(container.getResources().getLimits());
    }
    if (requests != null) {
      effective.putAll(requests);
    }
    return quantities(effective);
  }

  static Resource quantities(Map<String, Quantity> quantities) {
    if (quantities == null || quantities.isEmpty()) {
      return Resource.EMPTY;
    }
    Map<String, Long> canonical = new TreeMap<>();
    quantities.forEach(
        (name, quantity) -> {
          if (!Resource.PODS.equals(name)) {
            canonical.put(name, Resource.canonicalAmount(name, quantity.toSuffixedString()));
          }
        });
    return Resource.ofCanonical(canonical);
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
