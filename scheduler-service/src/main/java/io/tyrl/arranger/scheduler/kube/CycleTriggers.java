package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Which watched changes may let a job be placed, and so are worth a cycle before the period is up:
 * a TYJob submitted, deleted, its spec changed (generation) or moved by the controller to
 * Rescheduling, Succeeded or Failed; a pod gone, finished or terminating (room freed); a node added
 * or its schedulable room changed (allocatable, cordon, taints, labels, readiness); a Queue added,
 * deleted or its spec changed. The scheduler's own status writes change neither generation nor
 * stage, so their echoes start no cycle; nor do the controller's pod creates and the kubelets'
 * heartbeats. A change missed here waits for the period.
 */
public final class CycleTriggers {

  private CycleTriggers() {}

  static boolean podFreesRoom(V1Pod before, V1Pod after) {
    return becameTerminal(phase(before), phase(after))
        || (before.getMetadata() != null
            && before.getMetadata().getDeletionTimestamp() == null
            && after.getMetadata() != null
            && after.getMetadata().getDeletionTimestamp() != null);
  }

  static boolean nodeRoomChanged(V1Node before, V1Node after) {
    return !Objects.equals(
            before.getSpec() == null ? null : before.getSpec().getUnschedulable(),
            after.getSpec() == null ? null : after.getSpec().getUnschedulable())
        || !Objects.equals(
            before.getSpec() == null ? null : before.getSpec().getTaints(),
            after.getSpec() == null ? null : after.getSpec().getTaints())
        || !Objects.equals(
            before.getStatus() == null ? null : before.getStatus().getAllocatable(),
            after.getStatus() == null ? null : after.getStatus().getAllocatable())
        || !Objects.equals(
            before.getMetadata() == null ? null : before.getMetadata().getLabels(),
            after.getMetadata() == null ? null : after.getMetadata().getLabels())
        || !Objects.equals(ready(before), ready(after));
  }

  /**
   * A TYJob's spec changed (its generation), or the controller moved it to a stage that asks for
   * room again (Rescheduling) or gives it back (Succeeded, Failed). Starting and Running change
   * nothing the next periodic cycle could not place just as well.
   */
  static boolean jobChanged(DynamicKubernetesObject before, DynamicKubernetesObject after) {
    Optional<Stage> stage = stage(after);
    return !Objects.equals(generation(before), generation(after))
        || (!Objects.equals(stage(before), stage)
            && stage.filter(CycleTriggers::movesRoom).isPresent());
  }

  static boolean queueSpecChanged(DynamicKubernetesObject before, DynamicKubernetesObject after) {
    return !Objects.equals(generation(before), generation(after));
  }

  /**
   * A handler calling {@code change} on every delete, on every add when {@code adds} (a pod added
   * takes room, it frees none), and on the updates {@code matters} picks.
   */
  static <T extends KubernetesObject> ResourceEventHandler<T> handler(
      boolean adds, BiPredicate<T, T> matters, Runnable change) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        if (adds) {
          change.run();
        }
      }

      @Override
      public void onUpdate(T before, T after) {
        if (matters.test(before, after)) {
          change.run();
        }
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        change.run();
      }
    };
  }

  private static boolean becameTerminal(String before, String after) {
    return !terminal(before) && terminal(after);
  }

  private static boolean terminal(String phase) {
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String phase(V1Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static String ready(V1Node node) {
    if (node.getStatus() == null || node.getStatus().getConditions() == null) {
      return null;
    }
    return node.getStatus().getConditions().stream()
        .filter(condition -> "Ready".equals(condition.getType()))
        .map(V1NodeCondition::getStatus)
        .findFirst()
        .orElse(null);
  }

  private static String generation(DynamicKubernetesObject object) {
    JsonObject metadata = TYJobDecoder.object(object.getRaw(), "metadata");
    return metadata == null ? null : TYJobDecoder.string(metadata, "generation");
  }

  private static Optional<Stage> stage(DynamicKubernetesObject object) {
    JsonObject status = TYJobDecoder.object(object.getRaw(), "status");
    return status == null
        ? Optional.empty()
        : Stage.fromWireName(TYJobDecoder.string(status, "stage"));
  }

  /** A stage that asks for room again (Rescheduling) or gives it back (Succeeded, Failed). */
  private static boolean movesRoom(Stage stage) {
    return stage == Stage.RESCHEDULING || stage.isTerminal();
  }
}
