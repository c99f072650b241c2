package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.scheduler.api.HostPort;
import io.tyrl.arranger.scheduler.api.LabelSelector;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PodAffinity;
import io.tyrl.arranger.scheduler.api.PodAffinityTerm;
import io.tyrl.arranger.scheduler.api.PreferredNodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskRole;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.api.TopologySpreadConstraint;
import io.tyrl.arranger.scheduler.api.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a pod spec's placement constraints for the core: node selector, node affinity (required and
 * preferred, {@code matchExpressions} and {@code matchFields}), tolerations, host ports, pod
 * affinity and anti-affinity (required and preferred) and topology spread constraints.
 *
 * <p>Not read: a non-empty {@code namespaceSelector} (it needs Namespace labels, which the
 * scheduler does not watch; an empty one means every namespace, and is read as such), and the
 * spread fields {@code minDomains}, {@code matchLabelKeys}, {@code nodeAffinityPolicy} and {@code
 * nodeTaintsPolicy} (their defaults apply).
 */
final class PlacementConstraintsReader {

  private PlacementConstraintsReader() {}

  static PlacementConstraints constraints(V1PodSpec spec) {
    if (spec == null) {
      return PlacementConstraints.NONE;
    }
    V1Affinity affinity = spec.getAffinity();
    List<NodeAffinityTerm> required = new ArrayList<>();
    List<PreferredNodeAffinityTerm> preferred = new ArrayList<>();
    if (affinity != null && affinity.getNodeAffinity() != null) {
      var nodeAffinity = affinity.getNodeAffinity();
      if (nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
        for (V1NodeSelectorTerm term :
            nullToEmpty(
                nodeAffinity
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms())) {
          required.add(nodeTerm(term));
        }
      }
      for (V1PreferredSchedulingTerm term :
          nullToEmpty(nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution())) {
        preferred.add(
            new PreferredNodeAffinityTerm(term.getWeight(), nodeTerm(term.getPreference())));
      }
    }
    List<Toleration> tolerations =
        nullToEmpty(spec.getTolerations()).stream()
            .map(
                t ->
                    new Toleration(
                        t.getKey(),
                        "Exists".equals(t.getOperator())
                            ? Toleration.Operator.EXISTS
                            : Toleration.Operator.EQUAL,
                        t.getValue(),
                        t.getEffect() == null || t.getEffect().isEmpty()
                            ? null
                            : TaintEffect.fromKubernetes(t.getEffect())))
            .toList();
    return new PlacementConstraints(
        spec.getNodeSelector(),
        required,
        tolerations,
        preferred,
        hostPorts(spec),
        podAffinity(spec));
  }

  /**
   * The labels the pod will carry: its template's, and those the controller adds to every pod it
   * creates ({@link PodLabels}, the contract both services share), so that affinity and spread
   * terms selecting on either see the pod before it exists.
   */
  static Map<String, String> podLabels(
      V1PodTemplateSpec template, String jobName, TaskRole role, String workerSet, int index) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (template != null
        && template.getMetadata() != null
        && template.getMetadata().getLabels() != null) {
      labels.putAll(template.getMetadata().getLabels());
    }
    labels.putAll(
        role == TaskRole.LEADER
            ? PodLabels.ofLeader(jobName)
            : PodLabels.ofWorker(jobName, workerSet, index));
    return labels;
  }

  /** The host ports the pod's containers (and init containers) bind. */
  static List<HostPort> hostPorts(V1PodSpec spec) {
    if (spec == null) {
      return List.of();
    }
    List<HostPort> ports = new ArrayList<>();
    List<V1Container> containers = new ArrayList<>(nullToEmpty(spec.getContainers()));
    containers.addAll(nullToEmpty(spec.getInitContainers()));
    for (V1Container container : containers) {
      for (V1ContainerPort port : nullToEmpty(container.getPorts())) {
        if (port.getHostPort() != null && port.getHostPort() > 0) {
          ports.add(new HostPort(port.getHostPort(), port.getProtocol(), port.getHostIP()));
        }
      }
    }
    return ports;
  }

  static PodAffinity podAffinity(V1PodSpec spec) {
    V1Affinity affinity = spec.getAffinity();
    PodAffinity result = PodAffinity.NONE;
    if (affinity != null && affinity.getPodAffinity() != null) {
      result =
          result
              .withRequired(
                  map(
                      affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
                      PlacementConstraintsReader::podTerm))
              .withPreferred(
                  map(
                      affinity
                          .getPodAffinity()
                          .getPreferredDuringSchedulingIgnoredDuringExecution(),
                      PlacementConstraintsReader::weighted));
    }
    if (affinity != null && affinity.getPodAntiAffinity() != null) {
      result =
          result
              .withRequiredAnti(
                  map(
                      affinity
                          .getPodAntiAffinity()
                          .getRequiredDuringSchedulingIgnoredDuringExecution(),
                      PlacementConstraintsReader::podTerm))
              .withPreferredAnti(
                  map(
                      affinity
                          .getPodAntiAffinity()
                          .getPreferredDuringSchedulingIgnoredDuringExecution(),
                      PlacementConstraintsReader::weighted));
    }
    return result.withSpread(
        map(spec.getTopologySpreadConstraints(), PlacementConstraintsReader::spread));
  }

  /** Required anti-affinity terms of a pod, which keep matching pods out of its domain. */
  static List<PodAffinityTerm> requiredAntiAffinity(V1PodSpec spec) {
    if (spec == null
        || spec.getAffinity() == null
        || spec.getAffinity().getPodAntiAffinity() == null) {
      return List.of();
    }
    return map(
        spec.getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
        PlacementConstraintsReader::podTerm);
  }

  private static NodeAffinityTerm nodeTerm(V1NodeSelectorTerm term) {
    if (term == null) {
      return new NodeAffinityTerm(List.of());
    }
    return new NodeAffinityTerm(
        map(term.getMatchExpressions(), PlacementConstraintsReader::nodeRequirement),
        map(term.getMatchFields(), PlacementConstraintsReader::nodeRequirement));
  }

  private static NodeSelectorRequirement nodeRequirement(V1NodeSelectorRequirement requirement) {
    return new NodeSelectorRequirement(
        requirement.getKey(),
        NodeSelectorOperator.fromKubernetes(requirement.getOperator()),
        requirement.getValues() == null ? List.of() : requirement.getValues());
  }

  private static PodAffinityTerm podTerm(V1PodAffinityTerm term) {
    boolean allNamespaces =
        term.getNamespaceSelector() != null
            && (term.getNamespaceSelector().getMatchLabels() == null
                || term.getNamespaceSelector().getMatchLabels().isEmpty())
            && (term.getNamespaceSelector().getMatchExpressions() == null
                || term.getNamespaceSelector().getMatchExpressions().isEmpty());
    Set<String> namespaces =
        term.getNamespaces() == null ? Set.of() : Set.copyOf(term.getNamespaces());
    return new PodAffinityTerm(
        labelSelector(term.getLabelSelector()), namespaces, allNamespaces, term.getTopologyKey());
  }

  private static WeightedPodAffinityTerm weighted(V1WeightedPodAffinityTerm term) {
    return new WeightedPodAffinityTerm(term.getWeight(), podTerm(term.getPodAffinityTerm()));
  }

  private static TopologySpreadConstraint spread(V1TopologySpreadConstraint constraint) {
    return new TopologySpreadConstraint(
        constraint.getMaxSkew(),
        constraint.getTopologyKey(),
        !"ScheduleAnyway".equals(constraint.getWhenUnsatisfiable()),
        labelSelector(constraint.getLabelSelector()));
  }

  /** A missing selector selects nothing; an empty one selects every pod (Kubernetes' reading). */
  private static LabelSelector labelSelector(V1LabelSelector selector) {
    if (selector == null) {
      return LabelSelector.NOTHING;
    }
    List<NodeSelectorRequirement> expressions = new ArrayList<>();
    for (V1LabelSelectorRequirement requirement : nullToEmpty(selector.getMatchExpressions())) {
      expressions.add(
          new NodeSelectorRequirement(
              requirement.getKey(),
              NodeSelectorOperator.fromKubernetes(requirement.getOperator()),
              requirement.getValues() == null ? List.of() : requirement.getValues()));
    }
    return LabelSelector.of(selector.getMatchLabels(), expressions);
  }

  private static <A, B> List<B> map(List<A> values, Function<A, B> reader) {
    return nullToEmpty(values).stream().map(reader).toList();
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
