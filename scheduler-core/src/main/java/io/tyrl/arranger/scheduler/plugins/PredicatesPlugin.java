package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PreferredNodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.GpuDevices;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.ScoreContextFn;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Where a pod may go, and which of those places it prefers.
 *
 * <p>Static filters (computed once per distinct constraints and node): node Ready and schedulable,
 * nodeSelector, required node affinity ({@code matchExpressions} on labels, {@code matchFields} on
 * {@code metadata.name}), and taints with effect NoSchedule or NoExecute that the pod does not
 * tolerate — including {@code node.kubernetes.io/not-ready}.
 *
 * <p>Dynamic predicates: every requested resource, and one pod slot, fit in what the node has idle;
 * the pod's host ports are free on the node ({@link HostPortIndex}); required pod affinity and
 * anti-affinity (the pod's own and, symmetrically, that of pods already there) and DoNotSchedule
 * topology spread ({@link PodNeighbourhood}).
 *
 * <p>Scores, each with its weight argument: preferred node affinity ({@code 100 × matched weight /
 * all preferred weight}), PreferNoSchedule taints ({@code 100 / (1 + untolerated ones)}), preferred
 * pod affinity and anti-affinity, and ScheduleAnyway spread. The host-port and inter-pod machinery,
 * and each score, are set up only when some pod or node in the session uses them, so a cluster that
 * uses none pays nothing for them.
 */
public final class PredicatesPlugin implements Plugin {

  public static final String NAME = "predicates";

  /** kube-scheduler's default weights, relative to nodeorder's weight 1. */
  public static final ArgumentSpec<Double> NODE_AFFINITY_WEIGHT =
      ArgumentSpec.decimal("nodeAffinity.weight", 2, 0, 1000);

  public static final ArgumentSpec<Double> TAINT_TOLERATION_WEIGHT =
      ArgumentSpec.decimal("taintToleration.weight", 3, 0, 1000);
  public static final ArgumentSpec<Double> POD_AFFINITY_WEIGHT =
      ArgumentSpec.decimal("podAffinity.weight", 2, 0, 1000);
  public static final ArgumentSpec<Double> TOPOLOGY_SPREAD_WEIGHT =
      ArgumentSpec.decimal("topologySpread.weight", 2, 0, 1000);

  static final PredicateResult NOT_READY = PredicateResult.rejectedTransiently("node not ready");
  static final PredicateResult UNSCHEDULABLE =
      PredicateResult.rejectedTransiently("node unschedulable");
  static final PredicateResult SELECTOR_MISMATCH =
      PredicateResult.rejected("node(s) didn't match node selector");
  static final PredicateResult AFFINITY_MISMATCH =
      PredicateResult.rejected("node(s) didn't match node affinity");

  /** Taints that Kubernetes sets for node conditions; they clear with the condition. */
  private static final Set<String> CONDITION_TAINTS =
      Set.of(
          Taint.NOT_READY_KEY,
          "node.kubernetes.io/unreachable",
          "node.kubernetes.io/unschedulable",
          "node.kubernetes.io/memory-pressure",
          "node.kubernetes.io/disk-pressure",
          "node.kubernetes.io/pid-pressure",
          "node.kubernetes.io/network-unavailable");

  private final Arguments arguments;
  private ResourceDimensions dimensions;

  /**
   * Rejections by the bit set of missing dimensions: an array for the usual few dimensions, a map
   * beyond.
   */
  private final PredicateResult[] insufficientByMask = new PredicateResult[256];

  private final Map<Long, PredicateResult> insufficientBeyond = new HashMap<>();
  private final Map<Long, PredicateResult> gpuDeviceReasons = new HashMap<>();

  PredicatesPlugin(Arguments arguments) {
    this.arguments = arguments;
  }

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(
        NAME,
        ArgumentSchema.of(
            NODE_AFFINITY_WEIGHT,
            TAINT_TOLERATION_WEIGHT,
            POD_AFFINITY_WEIGHT,
            TOPOLOGY_SPREAD_WEIGHT),
        PredicatesPlugin::new);
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    dimensions = session.dimensions();
    hooks.nodeFilter(PredicatesPlugin::filter);
    hooks.predicate(this::fits);
    if (HostPortIndex.needed(session)) {
      HostPortIndex ports = new HostPortIndex(session);
      session.addPlacementListener(ports);
      hooks.neighbourPredicate(ports::check);
    }
    if (PodNeighbourhood.needed(session)) {
      PodNeighbourhood neighbourhood = new PodNeighbourhood(session);
      session.addPlacementListener(neighbourhood);
      session.nodeSearch().judgePodsByTheirNeighbours();
      hooks.neighbourPredicate(neighbourhood::check);
      hooks.nodeScore(neighbourhood::affinityScore, arguments.get(POD_AFFINITY_WEIGHT));
      hooks.nodeScore(neighbourhood::spreadScore, arguments.get(TOPOLOGY_SPREAD_WEIGHT));
    }
    if (anyPendingTask(session, constraints -> !constraints.preferredAffinity().isEmpty())) {
      hooks.nodeScore(
          PredicatesPlugin::preferredNodeAffinityScore,
          arguments.get(NODE_AFFINITY_WEIGHT),
          ScoreContextFn.NODE_ONLY);
    }
    if (anyNodeTainted(session, TaintEffect.PREFER_NO_SCHEDULE)) {
      hooks.nodeScore(
          PredicatesPlugin::preferNoScheduleScore,
          arguments.get(TAINT_TOLERATION_WEIGHT),
          ScoreContextFn.NODE_ONLY);
    }
  }

  private static boolean anyPendingTask(Session session, Predicate<PlacementConstraints> uses) {
    return session.pendingTaskConstraints().stream().anyMatch(uses);
  }

  private static boolean anyNodeTainted(Session session, TaintEffect effect) {
    for (NodeState node : session.nodes()) {
      for (Taint taint : node.info().taints()) {
        if (taint.effect() == effect) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@code 100 × Σ weights of the preferred terms the node matches / Σ all preferred weights}; 0
   * without preferences.
   */
  static double preferredNodeAffinityScore(TaskState task, NodeState node) {
    List<PreferredNodeAffinityTerm> preferred = task.info().constraints().preferredAffinity();
    if (preferred.isEmpty()) {
      return 0;
    }
    long total = 0;
    long matched = 0;
    for (PreferredNodeAffinityTerm term : preferred) {
      total += term.weight();
      if (term.term().matches(node.info().labels(), node.name())) {
        matched += term.weight();
      }
    }
    return 100.0 * matched / total;
  }

  /**
   * {@code 100 / (1 + PreferNoSchedule taints the pod does not tolerate)}: 100 on a node without
   * any.
   */
  static double preferNoScheduleScore(TaskState task, NodeState node) {
    int untolerated = 0;
    for (Taint taint : node.info().taints()) {
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE
          && !task.info().constraints().tolerates(taint)) {
        untolerated++;
      }
    }
    return 100.0 / (1 + untolerated);
  }

  static PredicateResult filter(PlacementConstraints constraints, NodeState node) {
    NodeInfo info = node.info();
    if (!info.ready()) {
      return NOT_READY;
    }
    if (info.unschedulable()) {
      return UNSCHEDULABLE;
    }
    String avoided = constraints.avoidedNodes().get(info.name());
    if (avoided != null) {
      // Transient: the node is avoided for a while, not for good, so it never makes the job
      // NeverFits.
      return PredicateResult.rejectedTransiently(avoided);
    }
    if (!matchesSelector(constraints.nodeSelector(), info.labels())) {
      return SELECTOR_MISMATCH;
    }
    if (!matchesAffinity(constraints, info)) {
      return AFFINITY_MISMATCH;
    }
    for (Taint taint : info.taints()) {
      if (taint.blocksScheduling() && !constraints.tolerates(taint)) {
        String reason = "untolerated taint " + taint.describe();
        return CONDITION_TAINTS.contains(taint.key())
            ? PredicateResult.rejectedTransiently(reason)
            : PredicateResult.rejected(reason);
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

  private static boolean matchesAffinity(PlacementConstraints constraints, NodeInfo node) {
    if (constraints.requiredAffinity().isEmpty()) {
      return true;
    }
    for (NodeAffinityTerm term : constraints.requiredAffinity()) {
      if (term.matches(node.labels(), node.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The node passes the pod's nodeSelector and required node affinity (what topology spread calls
   * eligible).
   */
  static boolean matchesNodeSelection(PlacementConstraints constraints, NodeState node) {
    return matchesSelector(constraints.nodeSelector(), node.info().labels())
        && matchesAffinity(constraints, node.info());
  }

  private PredicateResult fits(TaskState task, NodeState node) {
    if (node.firstInsufficientDimension(task) < 0) {
      return PredicateResult.FITS;
    }
    long missing = node.insufficientDimensions(task);
    if (missing == 0 && node.lacksGpuDevice(task)) {
      return gpuDeviceReasons.computeIfAbsent(
          task.request(node.gpuDimension()),
          milli -> PredicateResult.rejected(gpuDeviceReason(milli)));
    }
    // Dimension 63 is the sign bit: a negative mask cast to int would land in the slot of its low
    // bits.
    if (missing >= 0 && missing < insufficientByMask.length) {
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
   * The node has the GPU total the pod asks for, but not on devices it can use: {@code no GPU with
   * 250m free} for a share of one device, {@code fewer than 2 whole GPUs free} for whole ones (a
   * whole-GPU pod never takes a shared device).
   */
  public static String gpuDeviceReason(long milli) {
    return GpuDevices.isFraction(milli)
        ? "no GPU with " + Resource.formatQuantity(Resource.GPU, milli) + " free"
        : "fewer than "
            + Resource.formatQuantity(Resource.GPU, milli)
            + (milli == GpuDevices.WHOLE ? " whole GPU free" : " whole GPUs free");
  }

  /**
   * One reason naming every resource the node lacks, so a node short of cpu and memory counts once,
   * as {@code Insufficient cpu and memory}; the pod limit reads {@code Too many pods} as in
   * kube-scheduler.
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
    return PredicateResult.rejected(
        reason.length() > 0 ? reason.toString() : "Insufficient resources");
  }
}
