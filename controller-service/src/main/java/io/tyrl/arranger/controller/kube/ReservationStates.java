package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1ContainerStateTerminated;
import io.kubernetes.client.openapi.models.V1ContainerStateWaiting;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import java.util.List;

/**
 * Why a GPU reservation pod does not hold its GPU yet, as a phrase that follows its name in the
 * Event on a job whose pods wait for it: what the kubelet reported (a container waiting to be
 * pulled, a pod the node refused, a script that failed), so that the user sees the cause without
 * looking for the reservation.
 */
final class ReservationStates {

  /** Longest part quoted from the kubelet's own words. */
  static final int QUOTED_LIMIT = 240;

  static final String NO_ID =
      "runs but has not written its GPU's ID into annotation "
          + GpuShareDevices.DEVICE_ID_ANNOTATION
          + " (may its service account patch pods of its namespace?)";

  private ReservationStates() {}

  /** A reservation that is not Running: pending, with the kubelet's reason when it gave one. */
  static String notRunning(V1Pod reservation) {
    V1PodStatus status = reservation.getStatus();
    String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
    for (V1ContainerStatus container : containers(status)) {
      V1ContainerStateWaiting waiting =
          container.getState() == null ? null : container.getState().getWaiting();
      if (waiting != null && waiting.getReason() != null) {
        return "is " + phase + ": " + detail(waiting.getReason(), waiting.getMessage());
      }
    }
    if (status != null && status.getConditions() != null) {
      for (V1PodCondition condition : status.getConditions()) {
        if ("False".equals(condition.getStatus()) && condition.getReason() != null) {
          return "is " + phase + ": " + detail(condition.getReason(), condition.getMessage());
        }
      }
    }
    if (status != null && status.getReason() != null) {
      return "is " + phase + ": " + detail(status.getReason(), status.getMessage());
    }
    return "is " + phase + ": no container of it has started";
  }

  /** A reservation that ended: how, from the pod's or its container's last words. */
  static String ended(V1Pod reservation) {
    V1PodStatus status = reservation.getStatus();
    String phase = status == null ? null : status.getPhase();
    if (status != null && status.getReason() != null) {
      return "ended (" + phase + ": " + detail(status.getReason(), status.getMessage()) + ")";
    }
    for (V1ContainerStatus container : containers(status)) {
      V1ContainerStateTerminated terminated =
          container.getState() == null ? null : container.getState().getTerminated();
      if (terminated != null) {
        return "ended ("
            + phase
            + ": its container exited "
            + terminated.getExitCode()
            + (terminated.getMessage() == null || terminated.getMessage().isBlank()
                ? ""
                : ": " + quoted(terminated.getMessage()))
            + ")";
      }
    }
    return "ended (" + phase + ")";
  }

  private static List<V1ContainerStatus> containers(V1PodStatus status) {
    return status == null || status.getContainerStatuses() == null
        ? List.of()
        : status.getContainerStatuses();
  }

  private static String detail(String reason, String message) {
    return message == null || message.isBlank() ? reason : reason + " (" + quoted(message) + ")";
  }

  private static String quoted(String text) {
    String line = text.strip().replace('\n', ' ');
    return line.length() <= QUOTED_LIMIT ? line : line.substring(0, QUOTED_LIMIT - 1) + "…";
  }
}
