package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Kubernetes matching rules of the placement terms a pod carries, each at its edges. */
class PlacementTermsTest {

  @ParameterizedTest(name = "{0}/{1}/{2} vs {3}/{4}/{5} -> {6}")
  @CsvSource({
    "80, TCP, '',       80, TCP, '',        true",
    "80, TCP, 10.0.0.1, 80, TCP, '',        true",
    "80, TCP, '',       80, TCP, 10.0.0.1,  true",
    "80, TCP, 0.0.0.0,  80, TCP, 10.0.0.1,  true",
    "80, TCP, 10.0.0.1, 80, TCP, 10.0.0.1,  true",
    "80, TCP, 10.0.0.1, 80, TCP, 10.0.0.2,  false",
    "80, TCP, '',       80, UDP, '',        false",
    "80, TCP, '',       81, TCP, '',        false",
    "80, '',  '',       80, TCP, '',        true"
  })
  void hostPortsConflictOnTheSamePortAndProtocolWhenTheirAddressesOverlap(
      int port,
      String protocol,
      String ip,
      int otherPort,
      String otherProtocol,
      String otherIp,
      boolean conflict) {
    HostPort one = new HostPort(port, protocol, ip);
    HostPort other = new HostPort(otherPort, otherProtocol, otherIp);

    assertThat(one.conflictsWith(other)).isEqualTo(conflict);
    assertThat(other.conflictsWith(one)).isEqualTo(conflict);
  }

  @Test
  void aHostPortIsWithinTheTcpRange() {
    assertThat(new HostPort(1, null, null)).isEqualTo(HostPort.tcp(1));
    assertThat(new HostPort(65535, "TCP", "0.0.0.0").hostIp()).isEmpty();
    assertThatThrownBy(() -> HostPort.tcp(0))
        .hasMessage("host port must be within 1..65535, was 0");
    assertThatThrownBy(() -> HostPort.tcp(65536))
        .hasMessage("host port must be within 1..65535, was 65536");
  }

  @Test
  void aLabelSelectorNeedsEveryLabelAndExpressionAndAnEmptyOneMatchesEverything() {
    LabelSelector selector =
        LabelSelector.of(
            Map.of("app", "rl", "tier", "actor"),
            List.of(NodeSelectorRequirement.of("zone", NodeSelectorOperator.IN, "a", "b")));

    assertThat(selector.matches(Map.of("app", "rl", "tier", "actor", "zone", "a"))).isTrue();
    assertThat(selector.matches(Map.of("app", "rl", "tier", "learner", "zone", "a"))).isFalse();
    assertThat(selector.matches(Map.of("app", "rl", "zone", "a"))).isFalse();
    assertThat(selector.matches(Map.of("app", "rl", "tier", "actor", "zone", "c"))).isFalse();
    assertThat(LabelSelector.EVERYTHING.matches(Map.of())).isTrue();
    assertThat(LabelSelector.NOTHING.matches(Map.of("app", "rl"))).isFalse();
    assertThat(new LabelSelector(null, null, false).matches(Map.of("x", "y"))).isTrue();
    assertThat(LabelSelector.matchLabels("app", "rl", "dangling").matchLabels())
        .isEqualTo(Map.of("app", "rl"));
  }

  @ParameterizedTest(name = "{1} {2} on {0} -> {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "8    | Gt | 7  | true",
        "8    | Gt | 8  | false",
        "8    | Lt | 9  | true",
        "8    | Lt | 8  | false",
        "x    | Gt | 1  | false",
        "x    | Lt | 1  | false",
        "-    | Gt | 1  | false",
        "-    | Lt | 1  | false",
        "a    | NotIn | a | false",
        "-    | NotIn | a | true",
        "-    | DoesNotExist | - | true",
        "a    | Exists | - | true"
      })
  void requirementsCompareLabelsAsKubernetesDoes(
      String label, String operator, String value, boolean matches) {
    NodeSelectorOperator op = NodeSelectorOperator.fromKubernetes(operator);
    NodeSelectorRequirement requirement =
        value.equals("-")
            ? NodeSelectorRequirement.of("k", op)
            : NodeSelectorRequirement.of("k", op, value);

    assertThat(requirement.matches(label.equals("-") ? Map.of() : Map.of("k", label)))
        .isEqualTo(matches);
  }

  @Test
  void aNodeAffinityTermWithoutRequirementsMatchesNothingAndFieldsNeedTheNodeName() {
    NodeAffinityTerm byName =
        NodeAffinityTerm.ofFields(
            NodeSelectorRequirement.of(
                NodeAffinityTerm.NODE_NAME_FIELD, NodeSelectorOperator.IN, "node-1"));
    NodeAffinityTerm byLabel =
        NodeAffinityTerm.of(NodeSelectorRequirement.of("gpu", NodeSelectorOperator.EXISTS));

    assertThat(NodeAffinityTerm.of().matches(Map.of("gpu", "a100"), "node-1")).isFalse();
    assertThat(NodeAffinityTerm.of().matches(Map.of("gpu", "a100"))).isFalse();
    assertThat(byName.matches(Map.of(), "node-1")).isTrue();
    assertThat(byName.matches(Map.of(), "node-2")).isFalse();
    assertThat(byName.matches(Map.of())).as("no node name to compare with").isFalse();
    assertThat(byLabel.matches(Map.of("gpu", "a100"))).isTrue();
    assertThat(byLabel.matches(Map.of())).isFalse();
  }

  @ParameterizedTest(name = "toleration {0} {1} {2} {3} vs taint {4}={5}:{6} -> {7}")
  @CsvSource({
    "'',        EXISTS, '',      '',          dedicated, infer, NO_SCHEDULE, true",
    "'',        EXISTS, '',      NO_EXECUTE,  dedicated, infer, NO_SCHEDULE, false",
    "dedicated, EXISTS, '',      '',          dedicated, infer, NO_EXECUTE,  true",
    "dedicated, EQUAL,  infer,   NO_SCHEDULE, dedicated, infer, NO_SCHEDULE, true",
    "dedicated, EQUAL,  train,   NO_SCHEDULE, dedicated, infer, NO_SCHEDULE, false",
    "other,     EXISTS, '',      '',          dedicated, infer, NO_SCHEDULE, false",
    "dedicated, EQUAL,  infer,   NO_SCHEDULE, dedicated, infer, NO_EXECUTE,  false"
  })
  void tolerationsMatchTaintsByKeyValueAndEffect(
      String key,
      Toleration.Operator operator,
      String value,
      String effect,
      String taintKey,
      String taintValue,
      TaintEffect taintEffect,
      boolean tolerates) {
    Toleration toleration =
        new Toleration(key, operator, value, effect.isEmpty() ? null : TaintEffect.valueOf(effect));

    assertThat(toleration.tolerates(new Taint(taintKey, taintValue, taintEffect)))
        .isEqualTo(tolerates);
  }

  @Test
  void aTolerationWithoutAKeyMustTolerateEveryValue() {
    assertThatThrownBy(() -> Toleration.equal("", "x", null))
        .hasMessage("toleration with an empty key must use operator Exists");
    assertThat(new Toleration(null, Toleration.Operator.EXISTS, null, null).key()).isEmpty();
    assertThat(new Toleration("k", null, null, null).operator())
        .isEqualTo(Toleration.Operator.EQUAL);
  }

  @Test
  void podAffinityFiltersByOtherPodsOnlyWhenSomethingIsRequired() {
    PodAffinityTerm term = PodAffinityTerm.of(LabelSelector.matchLabels("app", "rl"), "zone");
    WeightedPodAffinityTerm weighted = new WeightedPodAffinityTerm(10, term);
    TopologySpreadConstraint soft = new TopologySpreadConstraint(1, "zone", false, null);
    TopologySpreadConstraint hard = new TopologySpreadConstraint(1, "zone", true, null);

    assertThat(PodAffinity.NONE.isEmpty()).isTrue();
    assertThat(PodAffinity.NONE.filtersByOtherPods()).isFalse();
    for (PodAffinity affinity :
        List.of(
            PodAffinity.NONE.withPreferred(List.of(weighted)),
            PodAffinity.NONE.withPreferredAnti(List.of(weighted)),
            PodAffinity.NONE.withSpread(List.of(soft)))) {
      assertThat(affinity.isEmpty()).as("%s", affinity).isFalse();
      assertThat(affinity.filtersByOtherPods()).as("%s", affinity).isFalse();
    }
    for (PodAffinity affinity :
        List.of(
            PodAffinity.NONE.withRequired(List.of(term)),
            PodAffinity.NONE.withRequiredAnti(List.of(term)),
            PodAffinity.NONE.withSpread(List.of(hard)))) {
      assertThat(affinity.isEmpty()).as("%s", affinity).isFalse();
      assertThat(affinity.filtersByOtherPods()).as("%s", affinity).isTrue();
    }
    assertThat(PodAffinity.NONE.withPreferred(List.of(weighted)).preferred())
        .containsExactly(weighted);
    assertThat(PodAffinity.NONE.withPreferredAnti(List.of(weighted)).preferredAnti())
        .containsExactly(weighted);
    assertThat(PodAffinity.NONE.withSpread(List.of(soft)).spread()).containsExactly(soft);
    assertThat(new PodAffinity(null, null, null, null, null)).isEqualTo(PodAffinity.NONE);
  }

  @Test
  void aPodAffinityTermMeansPodsOfItsNamespacesAndNeedsATopologyKey() {
    PodAffinityTerm own = PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone");
    PodAffinityTerm listed =
        new PodAffinityTerm(LabelSelector.EVERYTHING, Set.of("a"), false, "zone");
    PodAffinityTerm all = new PodAffinityTerm(null, null, true, "zone");

    assertThat(own.matches("team", Map.of(), "team")).isTrue();
    assertThat(own.matches("other", Map.of(), "team")).isFalse();
    assertThat(listed.matches("a", Map.of(), "team")).isTrue();
    assertThat(listed.matches("team", Map.of(), "team")).isFalse();
    assertThat(all.matches("any", Map.of(), "team")).as("no selector matches no pod").isFalse();
    assertThatThrownBy(() -> PodAffinityTerm.of(LabelSelector.EVERYTHING, " "))
        .hasMessage("pod affinity term: topologyKey must not be blank");
    assertThatThrownBy(() -> new TopologySpreadConstraint(0, "zone", true, null))
        .hasMessage("topology spread constraint: maxSkew must be >= 1, was 0");
  }

  @Test
  void placementConstraintsKeepWhatEachWitherSets() {
    PreferredNodeAffinityTerm preferred =
        new PreferredNodeAffinityTerm(
            5, NodeAffinityTerm.of(NodeSelectorRequirement.of("gpu", NodeSelectorOperator.EXISTS)));

    PlacementConstraints constraints =
        PlacementConstraints.NONE.withPreferredAffinity(List.of(preferred));

    assertThat(constraints.preferredAffinity()).containsExactly(preferred);
    assertThat(constraints.podAffinity()).isEqualTo(PodAffinity.NONE);
    assertThat(new PlacementConstraints(null, null, null)).isEqualTo(PlacementConstraints.NONE);
  }
}
