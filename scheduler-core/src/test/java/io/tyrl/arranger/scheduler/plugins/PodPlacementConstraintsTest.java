package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.ExistingPod;
import io.tyrl.arranger.scheduler.api.HostPort;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.LabelSelector;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PodAffinity;
import io.tyrl.arranger.scheduler.api.PodAffinityTerm;
import io.tyrl.arranger.scheduler.api.PreferredNodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.api.TopologySpreadConstraint;
import io.tyrl.arranger.scheduler.api.WeightedPodAffinityTerm;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The predicates and scores kube-scheduler's NodeAffinity (matchFields, preferred terms),
 * TaintToleration (PreferNoSchedule), NodePorts, InterPodAffinity and PodTopologySpread define,
 * each on a small snapshot computed by hand. Every node is scored (percentageOfNodesToScore 100)
 * and BinPack (weight 1, 0..100) prefers the fuller node, so the expected node is never the one
 * BinPack or the first-found tie-break alone would choose.
 */
class PodPlacementConstraintsTest {

  private static final SchedulerConfiguration CONFIGURATION =
      Fixtures.configuration(
          """
      actions: "enqueue, allocate"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: predicates
            - name: proportion
            - name: nodeorder
      configurations:
        - name: allocate
          arguments: {percentageOfNodesToScore: 100}
      """);

  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String HOSTNAME = "kubernetes.io/hostname";

  /** Two nodes; "full" has 6 of 8 cpu used by others, so BinPack prefers it. */
  private static List<NodeInfo> fullAndEmpty(
      UnaryOperator<Fixtures.NodeBuilder> full, UnaryOperator<Fixtures.NodeBuilder> empty) {
    return List.of(
        full.apply(
                node("full")
                    .cpu("8")
                    .memory("32Gi")
                    .used("cpu", "6")
                    .label(HOSTNAME, "full")
                    .label(ZONE, "z1"))
            .build(),
        empty
            .apply(node("empty").cpu("8").memory("32Gi").label(HOSTNAME, "empty").label(ZONE, "z2"))
            .build());
  }

  private static NodeInfo withPods(NodeInfo node, ExistingPod... pods) {
    return new NodeInfo(
        node.name(),
        node.labels(),
        node.taints(),
        node.allocatable(),
        node.used(),
        node.releasing(),
        node.ready(),
        node.unschedulable(),
        node.podCount() + pods.length,
        List.of(pods));
  }

  private static ExistingPod pod(String namespace, String... labels) {
    return new ExistingPod(
        namespace, LabelSelector.matchLabels(labels).matchLabels(), List.of(), List.of());
  }

  /** Every task of the job gets these constraints and labels. */
  static JobInfo shaped(JobInfo job, PlacementConstraints constraints, Map<String, String> labels) {
    List<TaskInfo> tasks =
        job.tasks().stream()
            .map(task -> task.withConstraints(constraints).withLabels(labels))
            .toList();
    return job.toBuilder().tasks(tasks).build();
  }

  private static JobInfo single(PlacementConstraints constraints, String... labels) {
    return shaped(
        job("j").minWorkers(0).leader("cpu", "1").build(),
        constraints,
        LabelSelector.matchLabels(labels).matchLabels());
  }

  private static PlacementConstraints affinity(PodAffinity affinity) {
    return PlacementConstraints.NONE.withPodAffinity(affinity);
  }

  private static PodAffinityTerm term(String topologyKey, String... labels) {
    return PodAffinityTerm.of(LabelSelector.matchLabels(labels), topologyKey);
  }

  static Stream<Arguments> singlePods() {
    ExistingPod db = pod("default", "app", "db");
    ExistingPod dbElsewhere = pod("other", "app", "db");
    return Stream.of(
        Arguments.of(
            "matchFields In on metadata.name",
            fullAndEmpty(n -> n, n -> n),
            single(
                PlacementConstraints.NONE.withRequiredAffinity(
                    List.of(
                        NodeAffinityTerm.ofFields(
                            NodeSelectorRequirement.of(
                                NodeAffinityTerm.NODE_NAME_FIELD,
                                NodeSelectorOperator.IN,
                                "empty"))))),
            "empty"),
        Arguments.of(
            "matchFields NotIn on metadata.name",
            fullAndEmpty(n -> n, n -> n),
            single(
                PlacementConstraints.NONE.withRequiredAffinity(
                    List.of(
                        NodeAffinityTerm.ofFields(
                            NodeSelectorRequirement.of(
                                NodeAffinityTerm.NODE_NAME_FIELD,
                                NodeSelectorOperator.NOT_IN,
                                "full"))))),
            "empty"),
        Arguments.of(
            "host port taken by another pod on the fuller node",
            List.of(
                withPods(
                    fullAndEmpty(n -> n, n -> n).get(0),
                    new ExistingPod("default", Map.of(), List.of(HostPort.tcp(8080)), List.of())),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(8080)))),
            "empty"),
        Arguments.of(
            "another port, or the same port on another protocol, is free",
            List.of(
                withPods(
                    fullAndEmpty(n -> n, n -> n).get(0),
                    new ExistingPod("default", Map.of(), List.of(HostPort.tcp(8080)), List.of())),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                PlacementConstraints.NONE.withHostPorts(
                    List.of(HostPort.tcp(8081), new HostPort(8080, "UDP", "")))),
            "full"),
        Arguments.of(
            "required pod affinity follows its partner's zone",
            List.of(
                fullAndEmpty(n -> n, n -> n).get(0),
                withPods(fullAndEmpty(n -> n, n -> n).get(1), db)),
            single(affinity(PodAffinity.NONE.withRequired(List.of(term(ZONE, "app", "db"))))),
            "empty"),
        Arguments.of(
            "a partner in another namespace does not count",
            List.of(
                fullAndEmpty(n -> n, n -> n).get(0),
                withPods(fullAndEmpty(n -> n, n -> n).get(1), dbElsewhere)),
            single(affinity(PodAffinity.NONE.withRequired(List.of(term(ZONE, "app", "db"))))),
            null),
        Arguments.of(
            "a term listing the partner's namespace counts it",
            List.of(
                fullAndEmpty(n -> n, n -> n).get(0),
                withPods(fullAndEmpty(n -> n, n -> n).get(1), dbElsewhere)),
            single(
                affinity(
                    PodAffinity.NONE.withRequired(
                        List.of(
                            new PodAffinityTerm(
                                LabelSelector.matchLabels("app", "db"),
                                Set.of("other"),
                                false,
                                ZONE))))),
            "empty"),
        Arguments.of(
            "required anti-affinity keeps out of the partner's zone",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), db),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(affinity(PodAffinity.NONE.withRequiredAnti(List.of(term(ZONE, "app", "db"))))),
            "empty"),
        Arguments.of(
            "an existing pod's anti-affinity keeps matching pods out (symmetry)",
            List.of(
                withPods(
                    fullAndEmpty(n -> n, n -> n).get(0),
                    new ExistingPod(
                        "default", Map.of(), List.of(), List.of(term(HOSTNAME, "app", "web")))),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(PlacementConstraints.NONE, "app", "web"),
            "empty"),
        Arguments.of(
            "that anti-affinity does not concern pods it does not select",
            List.of(
                withPods(
                    fullAndEmpty(n -> n, n -> n).get(0),
                    new ExistingPod(
                        "default", Map.of(), List.of(), List.of(term(HOSTNAME, "app", "web")))),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(PlacementConstraints.NONE, "app", "batch"),
            "full"),
        Arguments.of(
            "spread DoNotSchedule: z1 holds 1 matching pod, z2 none; maxSkew 1 forbids a second in z1",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                1, ZONE, true, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "empty"),
        Arguments.of(
            "spread maxSkew 2 allows it",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                2, ZONE, true, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "full"),
        Arguments.of(
            "spread DoNotSchedule refuses a node without the topology label",
            List.of(
                node("unlabelled").cpu("8").memory("32Gi").used("cpu", "6").build(),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                1, ZONE, true, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "empty"),
        // Only z1 is eligible (the node in z2 fails the selector), so the emptiest domain holds 1
        // and a second pod in z1 is skew 1.
        Arguments.of(
            "spread counts only the zones of nodes passing the pod's node selector",
            List.of(
                withPods(
                    fullAndEmpty(n -> n.label("pool", "a"), n -> n).get(0),
                    pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                        PodAffinity.NONE.withSpread(
                            List.of(
                                new TopologySpreadConstraint(
                                    1, ZONE, true, LabelSelector.matchLabels("app", "x")))))
                    .withNodeSelector(Map.of("pool", "a")),
                "app",
                "x"),
            "full"),
        Arguments.of(
            "and of nodes passing its required node affinity",
            List.of(
                withPods(
                    fullAndEmpty(n -> n.label("pool", "a"), n -> n).get(0),
                    pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                        PodAffinity.NONE.withSpread(
                            List.of(
                                new TopologySpreadConstraint(
                                    1, ZONE, true, LabelSelector.matchLabels("app", "x")))))
                    .withRequiredAffinity(
                        List.of(
                            NodeAffinityTerm.of(
                                NodeSelectorRequirement.of("pool", NodeSelectorOperator.IN, "a")))),
                "app",
                "x"),
            "full"),
        // Spread score 100 × maxSkew / (maxSkew + pods in the domain − emptiest domain):
        // full: BinPack 100 × 7/8 = 87.5 + 2 × 100 × 1/(1 + 1 − 0) = 100 → 187.5; empty: 12.5 + 2 ×
        // 100 = 212.5.
        Arguments.of(
            "spread ScheduleAnyway scores the emptier zone higher",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                1, ZONE, false, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "empty"),
        // Two soft constraints of maxSkew 2, by zone and by hostname; full holds 2 matching pods,
        // empty none. Each on full:
        // 100 × 2 / (2 + 2) = 50, on empty 100: full 87.5 + 2 × 50 = 187.5; empty 12.5 + 2 × 100 =
        // 212.5.
        Arguments.of(
            "spread ScheduleAnyway scales the excess by maxSkew",
            List.of(
                withPods(
                    fullAndEmpty(n -> n, n -> n).get(0),
                    pod("default", "app", "x"),
                    pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                2, ZONE, false, LabelSelector.matchLabels("app", "x")),
                            new TopologySpreadConstraint(
                                2, HOSTNAME, false, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "empty"),
        // The same with 1 matching pod on full: 100 × 2 / (2 + 1) = 66.7 each, averaged (not
        // summed) over the two constraints:
        // full 87.5 + 2 × 66.7 = 220.8; empty 12.5 + 2 × 100 = 212.5.
        Arguments.of(
            "spread ScheduleAnyway averages its soft constraints",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), pod("default", "app", "x")),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withSpread(
                        List.of(
                            new TopologySpreadConstraint(
                                2, ZONE, false, LabelSelector.matchLabels("app", "x")),
                            new TopologySpreadConstraint(
                                2, HOSTNAME, false, LabelSelector.matchLabels("app", "x"))))),
                "app",
                "x"),
            "full"),
        // full: 87.5 + 2 × 100 = 287.5; empty: 12.5 + 0.
        Arguments.of(
            "preferred pod affinity scores the partner's zone",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), db),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withPreferred(
                        List.of(new WeightedPodAffinityTerm(10, term(ZONE, "app", "db")))))),
            "full"),
        // full: 87.5; empty, matching 1 of the 4 preferred weight: 12.5 + 2 × 100 × 1/4 = 62.5.
        Arguments.of(
            "preferred pod affinity counts as the share of the preferred weight it matches",
            List.of(
                fullAndEmpty(n -> n, n -> n).get(0),
                withPods(fullAndEmpty(n -> n, n -> n).get(1), db)),
            single(
                affinity(
                    PodAffinity.NONE.withPreferred(
                        List.of(
                            new WeightedPodAffinityTerm(1, term(ZONE, "app", "db")),
                            new WeightedPodAffinityTerm(3, term(ZONE, "app", "cache")))))),
            "full"),
        // full: 87.5 − 2 × 100 = −112.5; empty: 12.5.
        Arguments.of(
            "preferred pod anti-affinity scores away from it",
            List.of(
                withPods(fullAndEmpty(n -> n, n -> n).get(0), db),
                fullAndEmpty(n -> n, n -> n).get(1)),
            single(
                affinity(
                    PodAffinity.NONE.withPreferredAnti(
                        List.of(new WeightedPodAffinityTerm(10, term(ZONE, "app", "db")))))),
            "empty"),
        // full: 87.5 + 2 × 100 × 0/3 = 87.5; empty: 12.5 + 2 × 100 × 3/3 = 212.5.
        Arguments.of(
            "preferred node affinity outweighs BinPack",
            fullAndEmpty(n -> n, n -> n.label("disk", "ssd")),
            single(
                PlacementConstraints.NONE.withPreferredAffinity(
                    List.of(
                        new PreferredNodeAffinityTerm(
                            3,
                            NodeAffinityTerm.of(
                                NodeSelectorRequirement.of(
                                    "disk", NodeSelectorOperator.IN, "ssd")))))),
            "empty"),
        // full: 87.5; empty, matching 1 of the 4 preferred weight: 12.5 + 2 × 100 × 1/4 = 62.5.
        Arguments.of(
            "preferred node affinity counts as the share of the preferred weight it matches",
            fullAndEmpty(n -> n, n -> n.label("disk", "ssd")),
            single(
                PlacementConstraints.NONE.withPreferredAffinity(
                    List.of(
                        new PreferredNodeAffinityTerm(
                            1,
                            NodeAffinityTerm.of(
                                NodeSelectorRequirement.of(
                                    "disk", NodeSelectorOperator.IN, "ssd"))),
                        new PreferredNodeAffinityTerm(
                            3,
                            NodeAffinityTerm.of(
                                NodeSelectorRequirement.of(
                                    "disk", NodeSelectorOperator.IN, "nvme")))))),
            "full"),
        // full: 87.5 + 3 × 100/2 = 237.5; empty: 12.5 + 3 × 100 = 312.5.
        Arguments.of(
            "a PreferNoSchedule taint scores a node down",
            fullAndEmpty(n -> n.taint("spot", "true", TaintEffect.PREFER_NO_SCHEDULE), n -> n),
            single(PlacementConstraints.NONE),
            "empty"),
        // BinPack averages over the resources it weighs, so it stays in 0..100 for a cpu and memory
        // request (1 cpu, 2Gi):
        // full (7 cpu used) 100 × (8/8 + 2/32) / 2 = 53.1 + 3 × 100/2 = 203.1; empty 100 × (1/8 +
        // 2/32) / 2 = 9.4 + 300 = 309.4.
        Arguments.of(
            "a PreferNoSchedule taint outweighs BinPack over cpu and memory",
            fullAndEmpty(
                n -> n.used("cpu", "7").taint("spot", "true", TaintEffect.PREFER_NO_SCHEDULE),
                n -> n),
            shaped(
                job("j").minWorkers(0).leader("cpu", "1", "memory", "2Gi").build(),
                PlacementConstraints.NONE,
                Map.of()),
            "empty"),
        // full: 87.5 + 300; empty: 12.5 + 300.
        Arguments.of(
            "tolerated, it does not",
            fullAndEmpty(n -> n.taint("spot", "true", TaintEffect.PREFER_NO_SCHEDULE), n -> n),
            single(
                PlacementConstraints.NONE.withTolerations(
                    List.of(Toleration.exists("spot", null)))),
            "full"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singlePods")
  void aSinglePodGoesWhereItsConstraintsSay(
      String description, List<NodeInfo> nodes, JobInfo job, String expectedNode) {
    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(job), List.of()), CONFIGURATION, T0);

    if (expectedNode == null) {
      assertThat(result.decision(job.key()).allocations()).isEmpty();
    } else {
      assertThat(result.decision(job.key()).allocations())
          .containsExactlyEntriesOf(Map.of("j-learner", expectedNode));
    }
  }

  /**
   * Three pods wanting to be together in a zone: the first goes anywhere (nobody matches yet), the
   * others follow it.
   */
  @Test
  void podsWithAffinityToTheirOwnLabelFollowTheFirstOneInTheSameCycle() {
    List<NodeInfo> nodes =
        List.of(
            node("a1").cpu("2").memory("8Gi").label(ZONE, "a").build(),
            node("b1").cpu("2").memory("8Gi").label(ZONE, "b").build(),
            node("a2").cpu("2").memory("8Gi").label(ZONE, "a").build());
    JobInfo together =
        shaped(
            job("j").minWorkers(2).leader("cpu", "1").workers("w", 2, "cpu", "1").build(),
            affinity(PodAffinity.NONE.withRequired(List.of(term(ZONE, "group", "g")))),
            Map.of("group", "g"));

    Map<String, String> allocations =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(together), List.of()), CONFIGURATION, T0)
            .decision(together.key())
            .allocations();

    assertThat(allocations).hasSize(3);
    assertThat(allocations.values().stream().map(n -> n.substring(0, 1)).distinct()).hasSize(1);
  }

  /**
   * Anti-affinity to their own label by hostname: one pod per node, and the fourth pod of three
   * nodes waits, explained.
   */
  @Test
  void podsAvoidingTheirOwnLabelTakeOneNodeEachIncludingPodsPlacedInThisCycle() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (String name : List.of("n1", "n2", "n3")) {
      nodes.add(node(name).cpu("8").memory("32Gi").label(HOSTNAME, name).build());
    }
    JobInfo spread =
        shaped(
            job("j").minWorkers(0).leader("cpu", "1").workers("w", 3, "cpu", "1").build(),
            affinity(PodAffinity.NONE.withRequiredAnti(List.of(term(HOSTNAME, "app", "solo")))),
            Map.of("app", "solo"));

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(spread), List.of()), CONFIGURATION, T0)
            .decision(spread.key());

    assertThat(decision.allocations()).hasSize(3);
    assertThat(Set.copyOf(decision.allocations().values()))
        .containsExactlyInAnyOrder("n1", "n2", "n3");
    assertThat(decision.message())
        .contains("0/3 nodes fit w: 3 node(s) didn't satisfy existing pods anti-affinity rules");
  }

  /**
   * A pod refused because of its own labels says nothing about a pod with the same request and
   * constraints but other labels: the node search must not reuse the first one's "fits nowhere". On
   * the only node, an existing pod keeps app=web pods away. The mixed job (first, by priority)
   * places its leader there and keeps its app=web worker's refusal (its statement commits); the
   * batch job, identical but for its labels, must still land there.
   */
  @Test
  void aPodRefusedForItsLabelsDoesNotRefuseAnIdenticalPodWithOtherLabels() {
    List<NodeInfo> nodes =
        List.of(
            withPods(
                node("n1").cpu("8").memory("32Gi").label(HOSTNAME, "n1").build(),
                new ExistingPod(
                    "default", Map.of(), List.of(), List.of(term(HOSTNAME, "app", "web")))));
    JobInfo mixedTemplate =
        job("mixed")
            .priority(9)
            .minWorkers(0)
            .leader("cpu", "1")
            .workers("w", 1, "cpu", "1")
            .build();
    JobInfo mixed =
        mixedTemplate.toBuilder()
            .tasks(
                mixedTemplate.tasks().stream()
                    .map(task -> task.withLabels(Map.of("app", task.isLeader() ? "other" : "web")))
                    .toList())
            .build();
    JobInfo batch =
        shaped(
            job("batch").priority(1).minWorkers(0).leader("cpu", "1").build(),
            PlacementConstraints.NONE,
            Map.of("app", "batch"));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(mixed, batch), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(mixed.key()).allocations())
        .containsExactlyEntriesOf(Map.of("mixed-learner", "n1"));
    assertThat(result.decision(batch.key()).allocations())
        .containsExactlyEntriesOf(Map.of("batch-learner", "n1"));
  }

  /**
   * Spread DoNotSchedule, maxSkew 1, over two zones, for three pods of one Strict gang placed in
   * one cycle: the emptiest zone's count must follow each placement (0, then 0, then 1), or the
   * third pod sees skew 2 everywhere and the gang fails.
   */
  @Test
  void podsSpreadOverZonesSeeTheEmptiestZoneRiseAsTheyArePlaced() {
    List<NodeInfo> nodes =
        List.of(
            node("a").cpu("8").memory("32Gi").label(ZONE, "z1").build(),
            node("b").cpu("8").memory("32Gi").label(ZONE, "z2").build());
    JobInfo spread =
        shaped(
            job("j").minWorkers(2).leader("cpu", "1").workers("w", 2, "cpu", "1").build(),
            affinity(
                PodAffinity.NONE.withSpread(
                    List.of(
                        new TopologySpreadConstraint(
                            1, ZONE, true, LabelSelector.matchLabels("app", "x"))))),
            Map.of("app", "x"));

    Map<String, String> allocations =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(spread), List.of()), CONFIGURATION, T0)
            .decision(spread.key())
            .allocations();

    assertThat(allocations).hasSize(3);
    assertThat(allocations.values().stream().filter("a"::equals).count()).isBetween(1L, 2L);
  }

  /**
   * ScheduleAnyway spread scores every node against the same emptiest zone. z2 ("full", scored
   * first) holds 2 matching pods, z1 ("empty") 1, so the emptiest holds 1: full 87.5 + 2 × 100 ×
   * 1/(1 + 1) = 187.5; empty 12.5 + 2 × 100 × 1/1 = 212.5. Scored against an emptiest zone of 0,
   * empty would get only 112.5.
   */
  @Test
  void softSpreadScoresEveryNodeAgainstTheSameEmptiestZone() {
    List<NodeInfo> nodes =
        List.of(
            withPods(
                node("full").cpu("8").memory("32Gi").used("cpu", "6").label(ZONE, "z2").build(),
                pod("default", "app", "x"),
                pod("default", "app", "x")),
            withPods(
                node("empty").cpu("8").memory("32Gi").label(ZONE, "z1").build(),
                pod("default", "app", "x")));
    JobInfo job =
        single(
            affinity(
                PodAffinity.NONE.withSpread(
                    List.of(
                        new TopologySpreadConstraint(
                            1, ZONE, false, LabelSelector.matchLabels("app", "x"))))),
            "app",
            "x");

    Map<String, String> allocations =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(job), List.of()), CONFIGURATION, T0)
            .decision(job.key())
            .allocations();

    assertThat(allocations).containsExactlyEntriesOf(Map.of("j-learner", "empty"));
  }

  /**
   * Two pods of one job binding the same host port cannot share a node, even placed in one cycle.
   */
  @Test
  void twoPodsOfOneCycleBindingOnePortGoToDifferentNodes() {
    List<NodeInfo> nodes =
        List.of(
            node("n1").cpu("8").memory("32Gi").build(), node("n2").cpu("8").memory("32Gi").build());
    JobInfo ports =
        shaped(
            job("j").minWorkers(1).leader("cpu", "1").workers("w", 1, "cpu", "1").build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of());

    Map<String, String> allocations =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(ports), List.of()), CONFIGURATION, T0)
            .decision(ports.key())
            .allocations();

    assertThat(Set.copyOf(allocations.values())).containsExactlyInAnyOrder("n1", "n2");
  }

  /** Where some pods bind host ports, a pod binding none is not held back by them. */
  @Test
  void aPodWithoutHostPortsIgnoresTakenPorts() {
    List<NodeInfo> nodes =
        List.of(
            withPods(
                fullAndEmpty(n -> n, n -> n).get(0),
                new ExistingPod("default", Map.of(), List.of(HostPort.tcp(8080)), List.of())),
            fullAndEmpty(n -> n, n -> n).get(1));
    JobInfo ports =
        shaped(
            job("ports").priority(9).minWorkers(0).leader("cpu", "1").build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(8080))),
            Map.of());
    JobInfo plain =
        shaped(
            job("plain").priority(1).minWorkers(0).leader("cpu", "1").build(),
            PlacementConstraints.NONE,
            Map.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(ports, plain), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(ports.key()).allocations()).containsEntry("ports-learner", "empty");
    assertThat(result.decision(plain.key()).allocations()).containsEntry("plain-learner", "full");
  }

  /**
   * A discarded Strict gang takes its pods out of the neighbourhood counts. The gang's pods want to
   * be together by hostname but each binds host port 9000, so its leader lands on n1 and its first
   * worker fits nowhere: the gang is discarded. The next job, which must avoid the gang's pods,
   * then fits on n1.
   */
  @Test
  void aDiscardedGangLeavesNoNeighboursBehind() {
    List<NodeInfo> nodes =
        List.of(node("n1").cpu("8").memory("32Gi").label(HOSTNAME, "n1").build());
    JobInfo together =
        shaped(
            job("a-together")
                .priority(9)
                .minWorkers(2)
                .leader("cpu", "1")
                .workers("w", 2, "cpu", "1")
                .build(),
            affinity(PodAffinity.NONE.withRequired(List.of(term(HOSTNAME, "app", "web"))))
                .withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of("app", "web"));
    JobInfo avoiding =
        shaped(
            job("b-avoiding").priority(1).minWorkers(0).leader("cpu", "1").build(),
            affinity(PodAffinity.NONE.withRequiredAnti(List.of(term(HOSTNAME, "app", "web")))),
            Map.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(together, avoiding), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(together.key()).allocations()).isEmpty();
    assertThat(result.decision(avoiding.key()).allocations())
        .containsEntry("b-avoiding-learner", "n1");
  }

  /**
   * A pod placed by an earlier decision whose pod does not exist yet holds its host port through
   * its task alone (the node lists no such pod): a new pod binding the same port goes elsewhere,
   * though BinPack would rather have the fuller n1.
   */
  @Test
  void aTaskPlacedBeforeThisCycleHoldsItsHostPort() {
    List<NodeInfo> nodes =
        List.of(
            node("n1").cpu("8").memory("32Gi").build(), node("n2").cpu("8").memory("32Gi").build());
    JobInfo placed =
        shaped(
            job("a-placed")
                .minWorkers(0)
                .leader("cpu", "4")
                .placed("a-placed-learner", "n1")
                .build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of());
    JobInfo pending =
        shaped(
            job("b-pending").minWorkers(0).leader("cpu", "1").build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(placed, pending), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(placed.key()).allocations()).containsEntry("a-placed-learner", "n1");
    assertThat(result.decision(pending.key()).allocations())
        .containsEntry("b-pending-learner", "n2");
  }

  /** A discarded Strict gang gives its host ports back: the next job may bind them. */
  @Test
  void aDiscardedGangGivesItsHostPortsBack() {
    List<NodeInfo> nodes = List.of(node("n1").cpu("2").memory("8Gi").build());
    JobInfo tooBig =
        shaped(
            job("a-too-big")
                .priority(9)
                .minWorkers(2)
                .leader("cpu", "1")
                .workers("w", 2, "cpu", "1")
                .build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of());
    JobInfo fits =
        shaped(
            job("b-fits").priority(1).minWorkers(0).leader("cpu", "1").build(),
            PlacementConstraints.NONE.withHostPorts(List.of(HostPort.tcp(9000))),
            Map.of());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(tooBig, fits), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(tooBig.key()).allocations()).isEmpty();
    assertThat(result.decision(fits.key()).allocations()).containsEntry("b-fits-learner", "n1");
  }
}
