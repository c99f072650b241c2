package io.tyrl.arranger.scheduler.web;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Pod;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finds the leading replica's view from a standby: the Lease's holder is the leader's pod name (the
 * chart sets each replica's identity to its pod's), the pod is in the Lease's namespace, and its
 * container port named {@value #VIEW_PORT_NAME} is where the view listens. A route is kept for
 * {@link #REMEMBER}, so that a page's few requests every refresh cost the API server two reads at
 * most.
 */
final class LeaderLocator {

  static final String VIEW_PORT_NAME = "view";
  static final Duration REMEMBER = Duration.ofSeconds(2);

  private record Remembered(LeaderRoute route, Instant at) {}

  private final CoordinationV1Api leases;
  private final CoreV1Api pods;
  private final String namespace;
  private final String leaseName;
  private final String self;
  private final int ownViewPort;
  private final Clock clock;
  private Remembered last;

  /**
   * @param ownViewPort the port taken when the leader's pod names none {@value #VIEW_PORT_NAME}:
   *     replicas of one Deployment listen on the same one
   */
  LeaderLocator(
      ApiClient client,
      String namespace,
      String leaseName,
      String self,
      int ownViewPort,
      Clock clock) {
    this.leases = new CoordinationV1Api(client);
    this.pods = new CoreV1Api(client);
    this.namespace = namespace;
    this.leaseName = leaseName;
    this.self = self;
    this.ownViewPort = ownViewPort;
    this.clock = clock;
  }

  synchronized LeaderRoute locate() {
    Instant now = clock.instant();
    if (last != null && now.isBefore(last.at().plus(REMEMBER))) {
      return last.route();
    }
    LeaderRoute route = lookUp();
    last = new Remembered(route, now);
    return route;
  }

  private LeaderRoute lookUp() {
    String lease = namespace + "/" + leaseName;
    String holder;
    try {
      V1Lease read = leases.readNamespacedLease(leaseName, namespace).execute();
      holder = read.getSpec() == null ? null : read.getSpec().getHolderIdentity();
    } catch (ApiException e) {
      return new LeaderRoute.Unreachable(
          "this replica stands by and could not read the Lease " + lease + ": " + describe(e));
    }
    if (holder == null || holder.isBlank()) {
      return new LeaderRoute.Unreachable(
          "this replica stands by and no replica holds the Lease " + lease + " yet");
    }
    if (holder.equals(self)) {
      return new LeaderRoute.Here();
    }
    V1Pod pod;
    try {
      pod = pods.readNamespacedPod(holder, namespace).execute();
    } catch (ApiException e) {
      return new LeaderRoute.Unreachable(
          e.getCode() == 404
              ? "this replica stands by, and the leader "
                  + holder
                  + " is no pod of namespace "
                  + namespace
                  + " to pass the request on to"
              : "this replica stands by and could not read the leader's pod "
                  + namespace
                  + "/"
                  + holder
                  + ": "
                  + describe(e));
    }
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isBlank()) {
      return new LeaderRoute.Unreachable(
          "this replica stands by, and the leader's pod " + holder + " has no IP yet");
    }
    String host = ip.contains(":") ? "[" + ip + "]" : ip;
    return new LeaderRoute.Leader(
        holder, URI.create("http://" + host + ":" + viewPort(pod).orElse(ownViewPort)));
  }

  private static Optional<Integer> viewPort(V1Pod pod) {
    if (pod.getSpec() == null) {
      return Optional.empty();
    }
    for (V1Container container : pod.getSpec().getContainers()) {
      List<V1ContainerPort> ports = container.getPorts();
      if (ports == null) {
        continue;
      }
      for (V1ContainerPort port : ports) {
        if (VIEW_PORT_NAME.equals(port.getName())) {
          return Optional.of(port.getContainerPort());
        }
      }
    }
    return Optional.empty();
  }

  private static String describe(ApiException e) {
    return e.getCode() == 0 ? String.valueOf(e.getMessage()) : "HTTP " + e.getCode();
  }
}
