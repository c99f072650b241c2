package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns informer events into job keys for the work queue of the current leadership term. The
 * handlers are registered once, when the informers are built; while this replica does not lead,
 * there is no queue and events are dropped — a new leader enqueues every cached job anyway.
 */
public final class JobEventRouter {

  private volatile Consumer<String> target;

  public void routeTo(Consumer<String> queue) {
    this.target = queue;
  }

  public void stop() {
    this.target = null;
  }

  public ResourceEventHandler<DynamicKubernetesObject> jobEvents() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(DynamicKubernetesObject job) {
        route(InformerCache.keyOf(job));
      }

      @Override
      public void onUpdate(DynamicKubernetesObject before, DynamicKubernetesObject after) {
        route(InformerCache.keyOf(after));
      }

      @Override
      public void onDelete(DynamicKubernetesObject job, boolean finalStateUnknown) {
        route(InformerCache.keyOf(job));
      }
    };
  }

  /** A pod event concerns the job its label names. */
  public ResourceEventHandler<V1Pod> podEvents() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1Pod pod) {
        InformerCache.jobKeyOf(pod).ifPresent(JobEventRouter.this::route);
      }

      @Override
      public void onUpdate(V1Pod before, V1Pod after) {
        InformerCache.jobKeyOf(after).ifPresent(JobEventRouter.this::route);
      }

      @Override
      public void onDelete(V1Pod pod, boolean finalStateUnknown) {
        InformerCache.jobKeyOf(pod).ifPresent(JobEventRouter.this::route);
      }
    };
  }

  /**
   * A node that turns Ready or not concerns the jobs with pods on it (their pods may be stuck
   * there).
   *
   * @param jobsOnNode node name → keys of the jobs with a pod bound to it
   */
  public ResourceEventHandler<V1Node> nodeEvents(Function<String, List<String>> jobsOnNode) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1Node node) {
        // A node seen for the first time changes no job's view of it.
      }

      @Override
      public void onUpdate(V1Node before, V1Node after) {
        if (!NodeReadiness.notReady(before).equals(NodeReadiness.notReady(after))) {
          jobsOnNode.apply(after.getMetadata().getName()).forEach(JobEventRouter.this::route);
        }
      }

      @Override
      public void onDelete(V1Node node, boolean finalStateUnknown) {
        jobsOnNode.apply(node.getMetadata().getName()).forEach(JobEventRouter.this::route);
      }
    };
  }

  /**
   * A GPU reservation that starts running with its device's ID, or ends, concerns the jobs whose
   * pods wait for that device.
   *
   * @param jobsSeatedOn reservation pod name → keys of the jobs whose status seats a share on it
   */
  public ResourceEventHandler<V1Pod> reservationEvents(
      Function<String, List<String>> jobsSeatedOn) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1Pod reservation) {
        routeSeated(reservation);
      }

      @Override
      public void onUpdate(V1Pod before, V1Pod after) {
        routeSeated(after);
      }

      @Override
      public void onDelete(V1Pod reservation, boolean finalStateUnknown) {
        routeSeated(reservation);
      }

      private void routeSeated(V1Pod reservation) {
        jobsSeatedOn.apply(reservation.getMetadata().getName()).forEach(JobEventRouter.this::route);
      }
    };
  }

  private void route(String key) {
    Consumer<String> queue = target;
    if (queue != null) {
      queue.accept(key);
    }
  }
}
