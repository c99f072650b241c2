package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.DOES_NOT_EXIST;
import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.EXISTS;
import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.GT;
import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.IN;
import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.LT;
import static io.tyrl.arranger.scheduler.api.NodeSelectorOperator.NOT_IN;
import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import io.tyrl.arranger.scheduler.sim.Fixtures.JobBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PredicatesPluginTest {

  private static final Toleration TOLERATE_A100 =
      Toleration.equal("gpu", "a100", TaintEffect.NO_SCHEDULE);

  private static List<NodeInfo> nodes() {
    return List.of(
        node("a100")
            .cpu("8")
            .memory("32Gi")
            .label("gpu", "a100")
            .label("rank", "5")
            .taint("gpu", "a100", TaintEffect.NO_SCHEDULE)
            .build(),
        node("v100").cpu("8").memory("32Gi").label("gpu", "v100").label("rank", "2").build(),
        node("not-ready")
            .cpu("8")
            .memory("32Gi")
            .notReady()
            .taint(Taint.NOT_READY_KEY, "", TaintEffect.NO_SCHEDULE)
            .build(),
        node("cordoned").cpu("8").memory("32Gi").cordoned().build());
  }

  private static NodeAffinityTerm term(NodeSelectorRequirement... requirements) {
    return NodeAffinityTerm.of(requirements);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "no constraints: only the untainted ready node",
            (UnaryOperator<JobBuilder>) b -> b,
            "v100"),
        Arguments.of(
            "selector + toleration",
            (UnaryOperator<JobBuilder>) b -> b.nodeSelector("gpu", "a100").tolerate(TOLERATE_A100),
            "a100"),
        Arguments.of(
            "selector without toleration",
            (UnaryOperator<JobBuilder>) b -> b.nodeSelector("gpu", "a100"),
            null),
        Arguments.of(
            "In",
            (UnaryOperator<JobBuilder>)
                b -> b.requiredAffinity(term(NodeSelectorRequirement.of("gpu", IN, "v100", "t4"))),
            "v100"),
        Arguments.of(
            "NotIn + tolerate all",
            (UnaryOperator<JobBuilder>)
                b ->
                    b.tolerate(new Toleration("", Toleration.Operator.EXISTS, null, null))
                        .requiredAffinity(
                            term(
                                NodeSelectorRequirement.of("gpu", NOT_IN, "v100"),
                                NodeSelectorRequirement.of("gpu", EXISTS))),
            "a100"),
        Arguments.of(
            "Gt",
            (UnaryOperator<JobBuilder>)
                b ->
                    b.tolerate(TOLERATE_A100)
                        .requiredAffinity(term(NodeSelectorRequirement.of("rank", GT, "3"))),
            "a100"),
        Arguments.of(
            "Lt",
            (UnaryOperator<JobBuilder>)
                b ->
                    b.tolerate(TOLERATE_A100)
                        .requiredAffinity(term(NodeSelectorRequirement.of("rank", LT, "3"))),
            "v100"),
        Arguments.of(
            "terms are ORed",
            (UnaryOperator<JobBuilder>)
                b ->
                    b.requiredAffinity(
                        term(NodeSelectorRequirement.of("gpu", IN, "h100")),
                        term(NodeSelectorRequirement.of("rank", IN, "2"))),
            "v100"),
        Arguments.of(
            "DoesNotExist only matches unusable nodes",
            (UnaryOperator<JobBuilder>)
                b -> b.requiredAffinity(term(NodeSelectorRequirement.of("gpu", DOES_NOT_EXIST))),
            null),
        Arguments.of(
            "tolerating not-ready does not beat the NotReady condition",
            (UnaryOperator<JobBuilder>)
                b ->
                    b.tolerate(Toleration.exists(Taint.NOT_READY_KEY, TaintEffect.NO_SCHEDULE))
                        .requiredAffinity(term(NodeSelectorRequirement.of("gpu", DOES_NOT_EXIST))),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void placesOnlyWherePredicatesAllow(
      String description, UnaryOperator<JobBuilder> constraints, String expectedNode) {
    var job = constraints.apply(job("j").minWorkers(0).leader("cpu", "1")).build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes(), List.of(job), List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    if (expectedNode == null) {
      assertThat(result.decision("default/j").allocations()).isEmpty();
      assertThat(result.decision("default/j").state()).isEqualTo(ScheduleState.UNSCHEDULED);
    } else {
      assertThat(result.decision("default/j").allocations())
          .containsExactlyEntriesOf(java.util.Map.of("j-learner", expectedNode));
    }
  }

  /**
   * NoExecute taints keep new pods off as NoSchedule ones do. BinPack prefers the fuller tainted
   * node, so only the taint can send the pod to the empty one.
   */
  @Test
  void aNoExecuteTaintKeepsPodsThatDoNotTolerateItOff() {
    List<NodeInfo> cluster =
        List.of(
            node("draining")
                .cpu("8")
                .memory("32Gi")
                .used("cpu", "6")
                .taint("maintenance", "now", TaintEffect.NO_EXECUTE)
                .build(),
            node("empty").cpu("8").memory("32Gi").build());
    var intolerant = job("intolerant").minWorkers(0).leader("cpu", "1").build();
    var tolerant =
        job("tolerant")
            .minWorkers(0)
            .leader("cpu", "1")
            .tolerate(Toleration.equal("maintenance", "now", TaintEffect.NO_EXECUTE))
            .build();

    CycleResult first =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(cluster, List.of(intolerant), List.of()),
                Fixtures.defaultConfiguration(),
                T0);
    CycleResult second =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(cluster, List.of(tolerant), List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    assertThat(first.decision("default/intolerant").allocations())
        .containsEntry("intolerant-learner", "empty");
    assertThat(second.decision("default/tolerant").allocations())
        .containsEntry("tolerant-learner", "draining");
  }

  @Test
  void aNodeTheJobAvoidsIsNotChosenIsExplainedAndDoesNotMakeTheJobFail() {
    List<NodeInfo> cluster =
        List.of(
            node("refused").cpu("8").memory("32Gi").build(),
            node("other").cpu("8").memory("32Gi").used("cpu", "8").build());
    String why =
        "node(s) where the kubelet refused this job's pod (refused: OutOfcpu), avoided until 2026-11-25T12:05:00Z";
    var job = job("j").minWorkers(0).leader("cpu", "1").avoid("refused", why).build();
    var other = job("k").minWorkers(0).leader("cpu", "1").build();

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(cluster, List.of(job, other), List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    JobDecision decision = result.decision("default/j");
    assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(decision.reason())
        .as("avoided for a while, not for good")
        .isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(decision.message()).contains("0/2 nodes fit learner: 1 Insufficient cpu, 1 " + why);
    assertThat(result.decision("default/k").allocations())
        .as("other jobs still use the node")
        .containsEntry("k-learner", "refused");
  }

  @Test
  void notReadyAndCordonedNodesAreExplainedAndDoNotMakeAJobFail() {
    var job =
        job("j")
            .minWorkers(0)
            .leader("cpu", "1")
            .requiredAffinity(term(NodeSelectorRequirement.of("gpu", DOES_NOT_EXIST)))
            .build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes(), List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
            .decision("default/j");

    assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(decision.message())
        .contains(
            "0/4 nodes fit learner: 2 node(s) didn't match node affinity, 1 node not ready, 1 node unschedulable");
  }

  /**
   * The message of requirements.md §2, reproduced: 40 nodes, 31 out of GPUs, 9 with a foreign
   * taint.
   */
  @Test
  void whyPendingMessageAggregatesReasonsOverNodes() {
    List<NodeInfo> cluster = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      cluster.add(
          node("full-" + i).cpu("64").memory("256Gi").gpu(8).used("nvidia.com/gpu", "8").build());
    }
    cluster.add(node("last").cpu("64").memory("256Gi").gpu(8).used("nvidia.com/gpu", "4").build());
    for (int i = 0; i < 9; i++) {
      cluster.add(
          node("a100-" + i)
              .cpu("64")
              .memory("256Gi")
              .gpu(8)
              .taint("gpu", "a100", TaintEffect.NO_SCHEDULE)
              .build());
    }
    var job =
        job("rl")
            .minWorkers(3)
            .leader("cpu", "4", "nvidia.com/gpu", "1")
            .workers("actor", 8, "cpu", "2", "nvidia.com/gpu", "1")
            .build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(cluster, List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
            .decision("default/rl");

    assertThat(decision.state()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(decision.allocations()).hasSize(4).containsValue("last");
    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(decision.message())
        .isEqualTo(
            "leader+3/8 workers placed; 0/40 nodes fit actor: 31 Insufficient nvidia.com/gpu, 9 untolerated taint gpu=a100");
  }

  /**
   * Why a pod fits nowhere, as kube-scheduler's FitError says it: every node counted once, naming
   * every resource it lacks; reasons by count, then by text. The actor asks 8 cpu / 16Gi / 1 GPU: 5
   * nodes lack only the GPU, 3 lack cpu and memory, 2 lack all three, 2 lack only cpu, 2 only
   * memory, 2 are tainted.
   */
  @Test
  void whyPendingNamesEveryMissingResourceOfEachNodeAndCountsEachNodeOnce() {
    List<NodeInfo> cluster = new ArrayList<>();
    add(cluster, 5, "gpu-full", b -> b.cpu("16").memory("64Gi").gpu(1).used("nvidia.com/gpu", "1"));
    add(cluster, 3, "small", b -> b.cpu("4").memory("8Gi").gpu(1));
    add(cluster, 2, "tiny", b -> b.cpu("4").memory("8Gi").gpu(1).used("nvidia.com/gpu", "1"));
    add(cluster, 2, "cpu-short", b -> b.cpu("4").memory("64Gi").gpu(1));
    add(cluster, 2, "memory-short", b -> b.cpu("16").memory("8Gi").gpu(1));
    add(
        cluster,
        2,
        "infer",
        b ->
            b.cpu("16").memory("64Gi").gpu(1).taint("dedicated", "infer", TaintEffect.NO_SCHEDULE));
    var job =
        job("rl").minWorkers(0).leader("cpu", "8", "memory", "16Gi", "nvidia.com/gpu", "1").build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(cluster, List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
            .decision("default/rl");

    assertThat(decision.message())
        .endsWith(
            "; 0/16 nodes fit learner: 5 Insufficient nvidia.com/gpu, 3 Insufficient cpu and memory, "
                + "2 Insufficient cpu, 2 Insufficient cpu, memory and nvidia.com/gpu, 2 Insufficient memory, 2 untolerated taint dedicated=infer");
  }

  /** A node out of pod slots and cpu says both. */
  @Test
  void aNodeOutOfPodSlotsAndCpuNamesBoth() {
    var nodes =
        List.of(
            node("full").cpu("4").memory("8Gi").used("cpu", "3").pods(1).podCount(1).build(),
            node("reserved")
                .cpu("8")
                .memory("8Gi")
                .taint("dedicated", "infer", TaintEffect.NO_SCHEDULE)
                .build());
    var job = job("j").minWorkers(0).leader("cpu", "2").build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
            .decision("default/j");

    assertThat(decision.message())
        .contains(
            "0/2 nodes fit learner: 1 Insufficient cpu, too many pods, 1 untolerated taint dedicated=infer");
  }

  /**
   * Allocate alone: enqueue would refuse, or fail as NeverFits, a job the node is short for before
   * the predicates explain it.
   */
  private static final SchedulerConfiguration ALLOCATE_ONLY =
      Fixtures.configuration(
          """
      actions: "allocate"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: predicates
            - name: nodeorder
      """);

  /**
   * A node with one unit of each of 61 extended resources besides the standard four: dimensions 4
   * (example.com/r00) to 64 (example.com/r60); {@code usedUp} are taken by other pods.
   */
  private static NodeInfo wideNode(String name, List<String> usedUp) {
    Fixtures.NodeBuilder builder = node(name).cpu("8").memory("32Gi");
    for (int i = 0; i <= 60; i++) {
      builder.allocatable(extended(i), "1");
    }
    for (String resource : usedUp) {
      builder.used(resource, resource.equals("cpu") ? "8" : "1");
    }
    return builder.build();
  }

  private static String extended(int index) {
    return String.format("example.com/r%02d", index);
  }

  /**
   * Each node is described by the set of dimensions it lacks, a 64-bit mask, and reasons are cached
   * per mask: masks below 256 in an array, the others in a map. Dimension 8 alone is the first mask
   * past the array; dimension 63 is the sign bit, so its masks are negative and must not be taken
   * for the array slot of their low bits (cpu alone, or nothing); dimension 64 is past the mask:
   * refused, but not named.
   */
  static Stream<Arguments> shortages() {
    return Stream.of(
        Arguments.of(
            "dimension 8 alone, the first mask past the array",
            List.of(List.of(extended(4))),
            "1 Insufficient example.com/r04"),
        Arguments.of(
            "masks with dimension 63 are told apart from those sharing their low bits",
            List.of(
                List.of("cpu"),
                List.of("cpu", extended(59)),
                List.of(extended(59)),
                List.of(extended(36), extended(59))),
            "1 Insufficient cpu, 1 Insufficient cpu and example.com/r59, 1 Insufficient example.com/r36 and example.com/r59, "
                + "1 Insufficient example.com/r59"),
        Arguments.of(
            "dimension 64 alone, past the mask",
            List.of(List.of(extended(60))),
            "1 Insufficient resources"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shortages")
  void eachNodeIsRefusedNamingExactlyTheResourcesItLacks(
      String description, List<List<String>> shortOfByNode, String reasons) {
    List<NodeInfo> nodes = new ArrayList<>();
    Set<String> requested = new TreeSet<>(List.of("cpu"));
    for (List<String> shortOf : shortOfByNode) {
      nodes.add(wideNode("wide-" + nodes.size(), shortOf));
      requested.addAll(shortOf);
    }
    List<String> request = new ArrayList<>();
    requested.forEach(resource -> request.addAll(List.of(resource, "1")));
    var job = job("j").minWorkers(0).leader(request.toArray(String[]::new)).build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(job), List.of()), ALLOCATE_ONLY, T0)
            .decision("default/j");

    assertThat(decision.state()).isEqualTo(ScheduleState.UNSCHEDULED);
    assertThat(decision.message()).endsWith(" nodes fit learner: " + reasons);
  }

  private static void add(
      List<NodeInfo> cluster, int count, String prefix, UnaryOperator<Fixtures.NodeBuilder> shape) {
    for (int i = 0; i < count; i++) {
      cluster.add(shape.apply(node(prefix + "-" + i)).build());
    }
  }

  @Test
  void podCountIsALimit() {
    var nodes = List.of(node("tiny").cpu("8").memory("8Gi").pods(3).podCount(2).build());
    var job = job("j").minWorkers(0).leader("cpu", "1").workers("actor", 2, "cpu", "1").build();

    JobDecision decision =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(job), List.of()), Fixtures.defaultConfiguration(), T0)
            .decision("default/j");

    assertThat(decision.allocations()).containsOnlyKeys("j-learner");
    assertThat(decision.message()).contains("0/1 nodes fit actor: 1 Too many pods");
  }
}
