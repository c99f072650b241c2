package io.tyrl.arranger.testing;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU devices of the simulated nodes, as the NVIDIA device plugin and the container runtime
 * would treat them ({@link GpuShareDevices}): a pod asking whole GPUs gets that many free devices,
 * each known by an ID ({@code GPU-<node>-<n>}); a GPU reservation pod gets one and its ID (which
 * the real pod writes into its own annotation); a pod sharing a device names the ID in {@value
 * GpuShareDevices#VISIBLE_DEVICES} and is refused when no running reservation of its node holds
 * that ID, or when the shares on it would add up beyond one GPU.
 */
final class SimulatedGpuDevices {

  /** How the kubelet refuses a pod whose GPU share it cannot honour. */
  static final String REFUSAL = "UnexpectedAdmissionError";

  /** What a pod was given: its node, the device IDs it holds, and its share (0 for whole GPUs). */
  private record Holding(String node, List<String> ids, long shareMilli, boolean reservation) {}

  private final Map<String, Holding> byPod = new HashMap<>();
  private final List<String> refusals = new ArrayList<>();

  /**
   * Admits a pod about to run on {@code node} of {@code gpus} devices.
   *
   * @return the refusal's message, when the pod's share cannot be honoured
   */
  synchronized Optional<String> admit(V1Pod pod, String node, int gpus) {
    String key = key(pod);
    if (byPod.containsKey(key)) {
      return Optional.empty();
    }
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String share = annotations == null ? null : annotations.get(GpuFraction.ANNOTATION);
    if (share != null) {
      return admitShare(pod, key, node, share);
    }
    long whole = wholeGpus(pod);
    boolean reservation = GpuShareDevices.isReservation(pod.getMetadata().getLabels());
    if (whole > 0) {
      List<String> ids = new ArrayList<>();
      for (int n = 0; n < gpus && ids.size() < whole; n++) {
        String id = id(node, n);
        if (!held(id)) {
          ids.add(id);
        }
      }
      byPod.put(key, new Holding(node, ids, 0, reservation));
    }
    return Optional.empty();
  }

  /** The device ID a reservation pod was given, to be written into its annotation. */
  synchronized Optional<String> reservedId(V1Pod pod) {
    Holding holding = byPod.get(key(pod));
    return holding == null || !holding.reservation() || holding.ids().isEmpty()
        ? Optional.empty()
        : Optional.of(holding.ids().get(0));
  }

  /** The pod ended or is gone: its devices and shares are free again. */
  synchronized void release(V1Pod pod) {
    byPod.remove(key(pod));
  }

  /** Every refusal so far, as "namespace/name: message". */
  synchronized List<String> refusals() {
    return List.copyOf(refusals);
  }

  private Optional<String> admitShare(V1Pod pod, String key, String node, String share) {
    long milli = GpuFraction.milli(share);
    String id = visibleDevices(pod).orElse(null);
    String refusal = null;
    if (id == null) {
      refusal = "no " + GpuShareDevices.VISIBLE_DEVICES + " names the device of its GPU share";
    } else if (byPod.values().stream()
        .noneMatch(h -> h.reservation() && h.node().equals(node) && h.ids().contains(id))) {
      refusal = "no GPU reservation on " + node + " holds " + id;
    } else {
      long shared =
          byPod.values().stream()
              .filter(h -> h.shareMilli() > 0 && h.ids().contains(id))
              .mapToLong(Holding::shareMilli)
              .sum();
      if (shared + milli > 1000) {
        refusal = id + " would hold " + (shared + milli) + "m of GPU";
      }
    }
    if (refusal != null) {
      refusals.add(key + ": " + refusal);
      return Optional.of(refusal);
    }
    byPod.put(key, new Holding(node, List.of(id), milli, false));
    return Optional.empty();
  }

  private boolean held(String id) {
    return byPod.values().stream().anyMatch(h -> h.shareMilli() == 0 && h.ids().contains(id));
  }

  private static Optional<String> visibleDevices(V1Pod pod) {
    for (V1Container container : pod.getSpec().getContainers()) {
      if (container.getEnv() != null) {
        for (V1EnvVar variable : container.getEnv()) {
          if (GpuShareDevices.VISIBLE_DEVICES.equals(variable.getName())
              && variable.getValue() != null) {
            return Optional.of(variable.getValue());
          }
        }
      }
    }
    return Optional.empty();
  }

  private static long wholeGpus(V1Pod pod) {
    long gpus = 0;
    for (V1Container container : pod.getSpec().getContainers()) {
      if (container.getResources() == null) {
        continue;
      }
      Map<String, Quantity> limits = container.getResources().getLimits();
      Map<String, Quantity> requests = container.getResources().getRequests();
      Quantity asked =
          limits != null && limits.containsKey(GpuFraction.GPU_RESOURCE)
              ? limits.get(GpuFraction.GPU_RESOURCE)
              : requests == null ? null : requests.get(GpuFraction.GPU_RESOURCE);
      if (asked != null) {
        gpus += asked.getNumber().longValue();
      }
    }
    return gpus;
  }

  static String id(String node, int device) {
    return "GPU-" + node + "-" + device;
  }

  private static String key(V1Pod pod) {
    return pod.getMetadata().getNamespace()
        + "/"
        + pod.getMetadata().getName()
        + " ("
        + pod.getMetadata().getUid()
        + ")";
  }
}
