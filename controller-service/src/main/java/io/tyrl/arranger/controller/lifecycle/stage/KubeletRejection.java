package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import java.util.Set;

/**
 * Recognises pods the kubelet refused at admission, after the scheduler had bound them. Such a pod
 * never ran: its placement was wrong (the scheduler's view of the node was stale), not the
 * workload, so it is given back for rescheduling without counting a restart.
 */
final class KubeletRejection {

  /**
   * Admission failures of the kubelet's predicate handler other than the {@code OutOf<resource>}
   * family.
   */
  private static final Set<String> ADMISSION_REASONS =
      Set.of(
          "NodeAffinity",
          "NodeSelectorMismatching",
          "NodePorts",
          "NodeName",
          "HostName",
          "TaintToleration",
          "UnexpectedAdmissionError",
          "InvalidNodeInfo",
          "PodOSNotSupported",
          "PodOSSelectorNodeLabelDoesNotMatch");

  private KubeletRejection() {}

  static boolean isRejected(PodView pod) {
    return pod.phase() == PodPhase.FAILED
        && pod.statusReason().map(KubeletRejection::isAdmissionReason).orElse(false);
  }

  /** {@code OutOfcpu}, {@code OutOfmemory}, {@code OutOfpods}, {@code OutOfnvidia.com/gpu}, ... */
  private static boolean isAdmissionReason(String reason) {
    return (reason.startsWith("OutOf") && reason.length() > "OutOf".length())
        || ADMISSION_REASONS.contains(reason);
  }
}
