package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.Toleration;
import java.util.ArrayList;
import java.util.List;

/** Reads a pod spec's placement constraints (node selector, node affinity, tolerations) for the core. */
final class PlacementConstraintsReader {

  private PlacementConstraintsReader() {}

  static PlacementConstraints constraints(V1PodSpec spec) {
    if (spec == null) {
      return PlacementConstraints.NONE;
    }
    List<NodeAffinityTerm> terms = new ArrayList<>();
    if (spec.getAffinity() != null && spec.getAffinity().getNodeAffinity() != null
        && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
      for (V1NodeSelectorTerm term : spec.getAffinity().getNodeAffinity()
          .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()) {
        List<NodeSelectorRequirement> requirements = new ArrayList<>();
        for (V1NodeSelectorRequirement requirement : term.getMatchExpressions() == null
            ? List.<V1NodeSelectorRequirement>of() : term.getMatchExpressions()) {
          requirements.add(new NodeSelectorRequirement(requirement.getKey(),
              NodeSelectorOperator.fromKubernetes(requirement.getOperator()),
              requirement.getValues() == null ? List.of() : requirement.getValues()));
        }
        terms.add(new NodeAffinityTerm(requirements));
      }
    }
    List<Toleration> tolerations = spec.getTolerations() == null ? List.of() : spec.getTolerations().stream()
        .map(t -> new Toleration(t.getKey(),
            "Exists".equals(t.getOperator()) ? Toleration.Operator.EXISTS : Toleration.Operator.EQUAL,
            t.getValue(), t.getEffect() == null || t.getEffect().isEmpty() ? null : TaintEffect.fromKubernetes(t.getEffect())))
        .toList();
    return new PlacementConstraints(spec.getNodeSelector(), terms, tolerations);
  }
}
