package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a pod may go. Static filters (computed once per distinct constraints and node): node Ready
 * and schedulable, nodeSelector, required node affinity, and taints with effect NoSchedule or
 * NoExecute that the pod does not tolerate — including {@code node.kubernetes.io/not-ready}.
 * Dynamic predicate: every requested resource, and one pod slot, fit in what the node has idle.
 */
public final class PredicatesPlugin implements Plugin {

  public static final String NAME = "predicates";

  static final PredicateResult NOT_READY = PredicateResult.rejectedTransiently("node not ready");
  static final PredicateResult UNSCHEDULABLE = PredicateResult.rejectedTransiently("node unschedulable");
  static final PredicateResult SELECTOR_MISMATCH = PredicateResult.rejected("node(s) didn't match node selector");
  static final PredicateResult AFFINITY_MISMATCH = PredicateResult.rejected("node(s) didn't match node affinity");

  /** Taints that Kubernetes sets for node conditions; they clear with the condition. */
  private static final Set<String> CONDITION_TAINTS = Set.of(Taint.NOT_READY_KEY, "node.kubernetes.io/unreachable",
      "node.kubernetes.io/unschedulable", "node.kubernetes.io/memory-pressure", "node.kubernetes.io/disk-pressure",
      "node.kubernetes.io/pid-pressure", "node.kubernetes.io/network-unavailable");

  private ResourceDimensions dimensions;
  /** Rejections by the bit set of missing dimensions: an array for the usual few dimensions, a map beyond. */
  private final PredicateResult[] insufficientByMask = new PredicateResult[256];
  private final Map<Long, PredicateResult> insufficientBeyond = new HashMap<>();

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new PredicatesPlugin());
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    dimensions = session.dimensions();
    hooks.nodeFilter(PredicatesPlugin::filter);
    hooks.predicate(this::fits);
  }

  static PredicateResult filter(PlacementConstraints constraints, NodeState node) {
    NodeInfo info = node.info();
    if (!info.ready()) {
      return NOT_READY;
    }
    if (info.unschedulable()) {
      return UNSCHEDULABLE;
    }
    if (!matchesSelector(constraints.nodeSelector(), info.labels())) {
      return SELECTOR_MISMATCH;
    }
    if (!matchesAffinity(constraints, info.labels())) {
      return AFFINITY_MISMATCH;
    }
    for (Taint taint : info.taints()) {
      if (taint.blocksScheduling() && !constraints.tolerates(taint)) {
        String reason = "untolerated taint " + taint.describe();
        return CONDITION_TAINTS.contains(taint.key()) ? PredicateResult.rejectedTransiently(reason) : PredicateResult.rejected(reason);
      }
    }
    return PredicateResult.FITS;
  }

  private static boolean matchesSelector(Map<String, String> selector, Map<String, String> labels) {
    for (Map.Entry<String, String> entry : selector.entrySet()) {
      if (!entry.getValue().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean matchesAffinity(PlacementConstraints constraints, Map<String, String> labels) {
    if (constraints.requiredAffinity().isEmpty()) {
      return true;
    }
    for (NodeAffinityTerm term : constraints.requiredAffinity()) {
      if (term.matches(labels)) {
        return true;
      }
    }
    return false;
  }

  private PredicateResult fits(TaskState task, NodeState node) {
    if (node.firstInsufficientDimension(task) < 0) {
      return PredicateResult.FITS;
    }
    long missing = node.insufficientDimensions(task);
    if (missing < insufficientByMask.length) {
      PredicateResult cached = insufficientByMask[(int) missing];
      if (cached == null) {
        cached = insufficientReason(missing);
        insufficientByMask[(int) missing] = cached;
      }
      return cached;
    }
    return insufficientBeyond.computeIfAbsent(missing, this::insufficientReason);
  }

  /**
   * One reason naming every resource the node lacks, so a node short of cpu and memory counts once,
   * as {@code Insufficient cpu and memory}; the pod limit reads {@code Too many pods} as in kube-scheduler.
   */
  private PredicateResult insufficientReason(long missing) {
    List<String> names = new ArrayList<>();
    for (int d = 0; d < Math.min(dimensions.size(), Long.SIZE); d++) {
      if (d != ResourceDimensions.PODS && (missing & (1L << d)) != 0) {
        names.add(dimensions.name(d));
      }
    }
    boolean tooManyPods = (missing & (1L << ResourceDimensions.PODS)) != 0;
    StringBuilder reason = new StringBuilder();
    if (!names.isEmpty()) {
      reason.append("Insufficient ");
      for (int i = 0; i < names.size(); i++) {
        reason.append(i == 0 ? "" : i == names.size() - 1 ? " and " : ", ").append(names.get(i));
      }
    }
    if (tooManyPods) {
      reason.append(reason.length() > 0 ? ", too many pods" : "Too many pods");
    }
    // Only a dimension beyond the bit set's 64 is missing: still a rejection, without the name.
    return PredicateResult.rejected(reason.length() > 0 ? reason.toString() : "Insufficient resources");
  }
}
