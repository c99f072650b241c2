package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.contract.PodLabels;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns informer events into job keys for the work queue of the current leadership term. The
 * handlers are registered once, when the informers are built; while this replica does not lead,
 * there is no queue and events are dropped — a new leader enqueues every cached job anyway.
 */
public final class JobEventRouter {

  /**
   * How long a worker's start (its phase or readiness, the pod neither ending nor deleted) may wait
   * before its job is reconciled: the work queue keeps one such wait per job, so a job's workers
   * starting together are looked at once a second, not once each. Every reconcile reads all of a
   * job's pods; a job of 5,000 actors whose workers started one by one was reconciled back to back
   * while they did, for status reports held back anyway.
   */
  static final Duration WORKER_START_DELAY = Duration.ofSeconds(1);

  private static final Set<String> NOT_ENDED = Set.of("Pending", "Running");

  /** Where events go: at once, or after a delay (waits for one key collapse into the first). */
  private record Target(Consumer<String> now, BiConsumer<String, Duration> later) {}

  private volatile Target target;

  public void routeTo(Consumer<String> now, BiConsumer<String, Duration> later) {
    this.target = new Target(now, later);
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
        if (isWorkerStarting(before, after)) {
          InformerCache.jobKeyOf(after).ifPresent(JobEventRouter.this::routeSoon);
        } else {
          InformerCache.jobKeyOf(after).ifPresent(JobEventRouter.this::route);
        }
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

  /**
   * A worker's update that only reports it starting: not the leader (whose address its workers wait
   * for), not being deleted, and neither before nor after ended.
   */
  static boolean isWorkerStarting(V1Pod before, V1Pod after) {
    return after.getMetadata() != null
        && after.getMetadata().getLabels() != null
        && PodLabels.WORKER.equals(after.getMetadata().getLabels().get(PodLabels.ROLE))
        && after.getMetadata().getDeletionTimestamp() == null
        && NOT_ENDED.contains(phaseOf(before))
        && NOT_ENDED.contains(phaseOf(after));
  }

  private static String phaseOf(V1Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPhase() == null
        ? "Pending"
        : pod.getStatus().getPhase();
  }

  private void route(String key) {
    Target queue = target;
    if (queue != null) {
      queue.now().accept(key);
    }
  }

  private void routeSoon(String key) {
    Target queue = target;
    if (queue != null) {
      queue.later().accept(key, WORKER_START_DELAY);
    }
  }
}
