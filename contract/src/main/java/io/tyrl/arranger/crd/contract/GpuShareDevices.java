package io.tyrl.arranger.crd.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * How a GPU share the scheduler seated on a device reaches that device on the node, as the
 * controller, the scheduler and the simulated kubelet all read it.
 *
 * <p>For each device of a node that holds shares, the controller keeps one <em>reservation pod</em>
 * bound to the node and asking {@code nvidia.com/gpu: 1}: the node's own device plugin gives it one
 * physical GPU, and the pod writes that GPU's ID (what the plugin put in {@value #VISIBLE_DEVICES})
 * into its annotation {@value #DEVICE_ID_ANNOTATION}. Each pod sharing the device is created with
 * {@value #VISIBLE_DEVICES} set to that ID, asking no {@code nvidia.com/gpu} itself: the NVIDIA
 * container runtime mounts the GPU the variable names. The reservation keeps the device out of the
 * kubelet's hands for anything else, so a whole-GPU pod never lands on a shared device.
 */
public final class GpuShareDevices {

  /** On a reservation pod: it holds one device of its node for the shares seated on it. */
  public static final String RESERVATION_LABEL = PodLabels.PREFIX + "gpu-reservation";

  /** On a reservation pod: the node whose device it holds. */
  public static final String NODE_ANNOTATION = PodLabels.PREFIX + "gpu-node";

  /**
   * On a reservation pod and on each pod sharing its device: the device's index among the node's
   * GPUs, as the scheduler counts them ({@code status.gpuDevices}).
   */
  public static final String DEVICE_ANNOTATION = PodLabels.PREFIX + "gpu-device";

  /**
   * On a reservation pod, written by the pod itself once it runs: the ID of the GPU the device
   * plugin gave it. On each sharing pod: the ID it was given.
   */
  public static final String DEVICE_ID_ANNOTATION = PodLabels.PREFIX + "gpu-device-id";

  /** The variable the device plugin sets and the NVIDIA container runtime reads. */
  public static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";

  private static final int MAX_NAME = 253;
  private static final String NAME_PREFIX = "arranger-gpu-";

  private GpuShareDevices() {}

  /** True for a pod carrying the reservation label. */
  public static boolean isReservation(Map<String, String> labels) {
    return labels != null && "true".equals(labels.get(RESERVATION_LABEL));
  }

  /**
   * The reservation pod's name for device {@code device} of {@code node}: {@code
   * arranger-gpu-<node>-<device>}, or, where that would be too long for a pod's name, the node's
   * name cut and followed by a hash of it, so that two nodes never share a name.
   */
  public static String reservationPodName(String node, int device) {
    String suffix = "-" + device;
    String name = NAME_PREFIX + node + suffix;
    if (name.length() <= MAX_NAME) {
      return name;
    }
    String hash = sha256(node).substring(0, 10);
    int keep = MAX_NAME - NAME_PREFIX.length() - suffix.length() - hash.length() - 1;
    String cut = node.substring(0, keep).replaceAll("[.-]+$", "");
    return NAME_PREFIX + cut + "-" + hash + suffix;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
