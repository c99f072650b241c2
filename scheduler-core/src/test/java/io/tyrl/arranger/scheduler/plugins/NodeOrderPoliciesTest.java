package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each BasicPolicy on a small case computed by hand (weights cpu = memory = gpu = 1, LeaderFirst
 * boosts 3). Nodes are listed so that the first-found tie-break cannot explain the choice.
 */
class NodeOrderPoliciesTest {

  private static final BasicPolicy BIN_PACK = new BasicPolicy("BinPack");
  private static final BasicPolicy MIN_FRAGMENT = new BasicPolicy("MinFragment");
  private static final BasicPolicy JOB_AFFINITY = new BasicPolicy("JobAffinity");
  private static final BasicPolicy JOB_ANTI_AFFINITY = new BasicPolicy("JobAntiAffinity");

  private static final SchedulerConfiguration CONFIGURATION =
      Fixtures.configuration(
          """
      actions: allocate
      tiers:
        - plugins:
            - name: gang
            - name: predicates
            - name: nodeorder
      configurations:
        - name: allocate
          arguments: {percentageOfNodesToScore: 100}
      """);

  /**
   * Request 1 cpu / 4Gi. After placing: a = cpu 7/8, memory 8/32 → BinPack (0.875+0.25)/2 = 56.25,
   * MinFragment (1−0.625)·56.25 = 21.1; b = cpu 4/8, memory 16/32 → BinPack 50, MinFragment 50.
   */
  private static List<NodeInfo> fragmentNodes() {
    return List.of(
        node("b").cpu("8").memory("32Gi").used("cpu", "3").used("memory", "12Gi").build(),
        node("a").cpu("8").memory("32Gi").used("cpu", "6").used("memory", "4Gi").build());
  }

  /**
   * Request 1 cpu / 1 GPU. After placing: quiet-cpu = cpu 1/8, gpu 5/8; busy-cpu = cpu 7/8, gpu
   * 2/8. Plain least-used: 0.375 vs 0.5625 → quiet-cpu. With the GPU weight ×3: (0.125+1.875)/4 =
   * 0.5 vs (0.875+0.75)/4 = 0.406 → busy-cpu, the node whose GPUs are least used. Neither is idle,
   * so the idle-node reserve plays no part.
   */
  private static List<NodeInfo> leaderNodes() {
    return List.of(
        node("quiet-cpu").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build(),
        node("busy-cpu")
            .cpu("8")
            .memory("32Gi")
            .gpu(8)
            .used("cpu", "6")
            .used("nvidia.com/gpu", "1")
            .build());
  }

  /**
   * The leader sits on a full node "home"; the worker (1 cpu / 1 GPU) chooses between m2 (cpu 1/8,
   * gpu 7/8 → BinPack 0.5) and m1 (cpu 6/8, gpu 1/8 → BinPack 0.4375); with the cpu weight ×3: m1
   * (2.25+0.125)/4 = 0.594 beats m2 (0.375+0.875)/4 = 0.3125.
   */
  private static List<NodeInfo> workerNodes() {
    return List.of(
        node("home").cpu("1").memory("4Gi").build(),
        node("m2").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "6").build(),
        node("m1").cpu("8").memory("32Gi").gpu(8).used("cpu", "5").build());
  }

  /**
   * Request 1 cpu / 4Gi. Both nodes fill cpu and memory evenly after placing (balance factor 1):
   * light = cpu 2/8, memory 8/32 → MinFragment 1 × 25 = 25; busy = cpu 6/8, memory 24/32 → 1 × 75 =
   * 75. Only the BinPack factor separates them, so a MinFragment that dropped it is caught.
   */
  private static List<NodeInfo> evenNodes() {
    return List.of(
        node("light").cpu("8").memory("32Gi").used("cpu", "1").used("memory", "4Gi").build(),
        node("busy").cpu("8").memory("32Gi").used("cpu", "5").used("memory", "20Gi").build());
  }

  /**
   * Request 8 cpu. Before placing, big (40 of 64 cpu used) is the fuller; after, small (8 + 8 of
   * 16) is full and big at 48/64: BinPack counts the pod in.
   */
  private static List<NodeInfo> sizedNodes() {
    return List.of(
        node("big").cpu("64").memory("32Gi").used("cpu", "40").build(),
        node("small").cpu("16").memory("32Gi").used("cpu", "8").build());
  }

  /**
   * A pod requesting nothing is judged by the current use of every weighted resource each node has,
   * averaged: b (cpu 3/8, memory 12/32) 0.375; a (cpu 7/8, memory 8/32) 0.5625; g (cpu 2/8, memory
   * 8/32, GPU 8/8) 0.5. Only g has GPUs, so the GPU counts on g alone, and once.
   */
  private static List<NodeInfo> bestEffortNodes() {
    return List.of(
        node("b").cpu("8").memory("32Gi").used("cpu", "3").used("memory", "12Gi").build(),
        node("a").cpu("8").memory("32Gi").used("cpu", "7").used("memory", "8Gi").build(),
        node("g")
            .cpu("8")
            .memory("32Gi")
            .gpu(8)
            .used("cpu", "2")
            .used("memory", "8Gi")
            .used("nvidia.com/gpu", "8")
            .build());
  }

  /**
   * Request 2 cpu. uneven (cpu 4/8, memory 4/32) ends at cpu 6/8, memory 1/8 → (1 − 0.625) × 75 =
   * 28.1; even (cpu 2/8, memory 8/32) at cpu 4/8, memory 2/8 → (1 − 0.25) × 50 = 37.5: the balance
   * after placing.
   */
  private static List<NodeInfo> balanceNodes() {
    return List.of(
        node("uneven").cpu("8").memory("32Gi").used("cpu", "4").used("memory", "4Gi").build(),
        node("even").cpu("8").memory("32Gi").used("cpu", "2").used("memory", "8Gi").build());
  }

  /**
   * Request 1 cpu. A node without memory counts its memory use as 0: no-memory (cpu 5/8) → (1 −
   * 0.625) × 62.5 = 23.4; normal (cpu 2/8, memory 0/32) → 0.75 × 25 = 18.75.
   */
  private static List<NodeInfo> memorylessNodes() {
    return List.of(
        node("normal").cpu("8").memory("32Gi").used("cpu", "1").build(),
        node("no-memory").cpu("8").used("cpu", "4").build());
  }

  private static List<NodeInfo> emptyNodes() {
    return List.of(
        node("x").cpu("8").memory("32Gi").build(),
        node("y").cpu("8").memory("32Gi").build(),
        node("z").cpu("8").memory("32Gi").build());
  }

  private static JobInfo single(BasicPolicy policy, String... request) {
    return job("j").basicPolicy(policy).minWorkers(0).leader(request).build();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "BinPack fills the fuller node",
            fragmentNodes(),
            single(BIN_PACK, "cpu", "1", "memory", "4Gi"),
            Map.of("j-learner", "a")),
        Arguments.of(
            "Gang uses the default order (BinPack)",
            fragmentNodes(),
            single(BasicPolicy.GANG, "cpu", "1", "memory", "4Gi"),
            Map.of("j-learner", "a")),
        Arguments.of(
            "MinFragment prefers even cpu/memory use",
            fragmentNodes(),
            single(MIN_FRAGMENT, "cpu", "1", "memory", "4Gi"),
            Map.of("j-learner", "b")),
        Arguments.of(
            "MinFragment between equally even nodes packs by its BinPack factor",
            evenNodes(),
            single(MIN_FRAGMENT, "cpu", "1", "memory", "4Gi"),
            Map.of("j-learner", "busy")),
        Arguments.of(
            "LeaderFirst puts the leader where GPUs are least used",
            leaderNodes(),
            single(BasicPolicy.LEADER_FIRST, "cpu", "1", "nvidia.com/gpu", "1"),
            Map.of("j-learner", "busy-cpu")),
        Arguments.of(
            "without the GPU boost the least used node differs",
            leaderNodes(),
            single(JOB_ANTI_AFFINITY, "cpu", "1", "nvidia.com/gpu", "1"),
            Map.of("j-learner", "quiet-cpu")),
        Arguments.of(
            "LeaderFirst packs a worker where cpu is most used",
            workerNodes(),
            job("j")
                .basicPolicy(BasicPolicy.LEADER_FIRST)
                .minWorkers(1)
                .leader("cpu", "1")
                .placed("j-learner", "home")
                .workers("actor", 1, "cpu", "1", "nvidia.com/gpu", "1")
                .build(),
            Map.of("j-learner", "home", "j-actor-0", "m1")),
        Arguments.of(
            "BinPack packs that worker by plain utilization",
            workerNodes(),
            job("j")
                .basicPolicy(BIN_PACK)
                .minWorkers(1)
                .leader("cpu", "1")
                .placed("j-learner", "home")
                .workers("actor", 1, "cpu", "1", "nvidia.com/gpu", "1")
                .build(),
            Map.of("j-learner", "home", "j-actor-0", "m2")),
        Arguments.of(
            "JobAffinity packs the job on one node",
            emptyNodes(),
            job("j")
                .basicPolicy(JOB_AFFINITY)
                .minWorkers(2)
                .leader("cpu", "1")
                .workers("actor", 2, "cpu", "1")
                .build(),
            Map.of("j-learner", "x", "j-actor-0", "x", "j-actor-1", "x")),
        Arguments.of(
            "BinPack weighs cpu and GPU alike: cpu 7/8 + GPU 1/8 beats cpu 1/8 + GPU 6/8 (0.5 against 0.4375)",
            List.of(
                node("gpu-busy").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "5").build(),
                node("cpu-busy").cpu("8").memory("32Gi").gpu(8).used("cpu", "6").build()),
            single(BIN_PACK, "cpu", "1", "nvidia.com/gpu", "1"),
            Map.of("j-learner", "cpu-busy")),
        Arguments.of(
            "BinPack judges utilization with the pod placed",
            sizedNodes(),
            single(BIN_PACK, "cpu", "8"),
            Map.of("j-learner", "small")),
        Arguments.of(
            "BinPack judges a pod requesting nothing by current use",
            bestEffortNodes(),
            single(BIN_PACK),
            Map.of("j-learner", "a")),
        Arguments.of(
            "MinFragment judges the balance with the pod placed",
            balanceNodes(),
            single(MIN_FRAGMENT, "cpu", "2"),
            Map.of("j-learner", "even")),
        Arguments.of(
            "MinFragment counts a resource the node lacks as unused",
            memorylessNodes(),
            single(MIN_FRAGMENT, "cpu", "1"),
            Map.of("j-learner", "no-memory")),
        Arguments.of(
            "JobAffinity starts the job on the fullest node",
            List.of(
                node("x").cpu("8").memory("32Gi").build(),
                node("y").cpu("8").memory("32Gi").used("cpu", "4").build()),
            job("j")
                .basicPolicy(JOB_AFFINITY)
                .minWorkers(2)
                .leader("cpu", "1")
                .workers("actor", 2, "cpu", "1")
                .build(),
            Map.of("j-learner", "y", "j-actor-0", "y", "j-actor-1", "y")),
        Arguments.of(
            "JobAntiAffinity spreads the job",
            emptyNodes(),
            job("j")
                .basicPolicy(JOB_ANTI_AFFINITY)
                .minWorkers(2)
                .leader("cpu", "1")
                .workers("actor", 2, "cpu", "1")
                .build(),
            Map.of("j-learner", "x", "j-actor-0", "y", "j-actor-1", "z")));
  }

  private static SchedulerConfiguration withIdleNodeReserve(int percent) {
    return Fixtures.configuration(
        """
        actions: allocate
        tiers:
          - plugins:
              - name: priority
              - name: gang
              - name: predicates
              - name: nodeorder
                arguments: {leaderFirst.idleNodeReserve: %d}
        configurations:
          - name: allocate
            arguments: {percentageOfNodesToScore: 100}
        """
            .formatted(percent));
  }

  private static JobInfo leaderFirst(String name, int priority, int gpus) {
    return job(name)
        .priority(priority)
        .basicPolicy(BasicPolicy.LEADER_FIRST)
        .minWorkers(0)
        .leader("cpu", "1", "nvidia.com/gpu", String.valueOf(gpus))
        .build();
  }

  /**
   * LeaderFirst leaders (1 cpu and some GPUs) on 8-GPU nodes: "idle" has no GPU in use, "used" 4 of
   * 8, "full" 8 of 8; two GPU nodes make a 10 % reserve one node, three make 34 % two.
   */
  static Stream<Arguments> idleNodeReserveCases() {
    // "idle-a" is the quieter idle node: "idle-b" has cpu in use, but no GPU.
    List<NodeInfo> twoIdle =
        List.of(
            node("idle-b").cpu("8").memory("32Gi").gpu(8).used("cpu", "2").build(),
            node("idle-a").cpu("8").memory("32Gi").gpu(8).build(),
            node("used").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build());
    List<NodeInfo> lastIdle =
        List.of(
            node("idle").cpu("8").memory("32Gi").gpu(8).build(),
            node("used").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build());
    return Stream.of(
        Arguments.of(
            "down to the reserve, a leader needing part of a node takes the quietest used node",
            10,
            lastIdle,
            List.of(leaderFirst("j", 5, 1)),
            Map.of("j-learner", "used")),
        Arguments.of(
            "with no reserve the quietest node wins, the idle one (the leader rule alone)",
            0,
            lastIdle,
            List.of(leaderFirst("j", 5, 1)),
            Map.of("j-learner", "idle")),
        Arguments.of(
            "a leader that no used node fits opens the idle node",
            10,
            List.of(
                node("idle").cpu("8").memory("32Gi").gpu(8).build(),
                node("full").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "8").build()),
            List.of(leaderFirst("j", 5, 2)),
            Map.of("j-learner", "idle")),
        Arguments.of(
            "a leader needing every GPU of a node takes the idle node",
            10,
            lastIdle,
            List.of(leaderFirst("j", 5, 8)),
            Map.of("j-learner", "idle")),
        Arguments.of(
            "the reserve is counted as placements are made: the first leader opens an idle node while two are, "
                + "the second keeps the last one",
            10,
            twoIdle,
            List.of(leaderFirst("first", 9, 1), leaderFirst("second", 1, 1)),
            Map.of("first-learner", "idle-a", "second-learner", "idle-a")),
        Arguments.of(
            "the same without a reserve: the second leader takes the other idle node",
            0,
            twoIdle,
            List.of(leaderFirst("first", 9, 1), leaderFirst("second", 1, 1)),
            Map.of("first-learner", "idle-a", "second-learner", "idle-b")),
        Arguments.of(
            "a reserve of 34 % of three nodes is two: the first leader already keeps both idle nodes",
            34, twoIdle, List.of(leaderFirst("first", 9, 1)), Map.of("first-learner", "used")),
        Arguments.of(
            "a node without GPUs is never an idle GPU node: the last idle one is still kept",
            10,
            List.of(
                node("idle").cpu("8").memory("32Gi").gpu(8).build(),
                node("used").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build(),
                node("cpu-only").cpu("8").memory("32Gi").build()),
            List.of(leaderFirst("j", 5, 1)),
            Map.of("j-learner", "used")),
        Arguments.of(
            "a pod placed on a node without GPUs does not make it an idle GPU node",
            10,
            List.of(
                node("idle").cpu("8").memory("32Gi").gpu(8).build(),
                node("used").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build(),
                node("cpu-only").cpu("8").memory("32Gi").label("kind", "cpu").build()),
            List.of(
                job("cpu-job")
                    .priority(9)
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .nodeSelector("kind", "cpu")
                    .build(),
                leaderFirst("j", 5, 1)),
            Map.of("cpu-job-learner", "cpu-only", "j-learner", "used")),
        Arguments.of(
            "nodes without GPUs do not count toward the reserve: 30 % of three GPU nodes is one, and two are idle",
            30,
            Stream.concat(
                    twoIdle.stream(),
                    Stream.of(
                        node("cpu-1").cpu("8").memory("32Gi").build(),
                        node("cpu-2").cpu("8").memory("32Gi").build(),
                        node("cpu-3").cpu("8").memory("32Gi").build()))
                .toList(),
            List.of(leaderFirst("j", 5, 1)),
            Map.of("j-learner", "idle-a")),
        Arguments.of(
            "a leader asking for no GPU is never held back from an idle GPU node",
            10,
            List.of(
                node("idle").cpu("8").memory("32Gi").gpu(8).build(),
                node("used")
                    .cpu("8")
                    .memory("32Gi")
                    .gpu(8)
                    .used("nvidia.com/gpu", "4")
                    .used("cpu", "2")
                    .build()),
            List.of(
                job("j")
                    .basicPolicy(BasicPolicy.LEADER_FIRST)
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .build()),
            Map.of("j-learner", "idle")));
  }

  /**
   * With nodeorder opening before gang, the gang plugin releases a timed-out job's placement after
   * the idle nodes were counted: "held" (cpu 2/8 used by another pod) becomes idle again, two of
   * three GPU nodes are idle, more than the reserve of one, so the leader takes the quietest node,
   * "idle-b". Were the release missed, "held" would look used and "idle-b" be kept back.
   */
  @Test
  void aPlacementGivenBackInTheCycleMakesItsNodeIdleAgain() {
    SchedulerConfiguration nodeorderFirst =
        Fixtures.configuration(
            """
        actions: allocate
        tiers:
          - plugins:
              - name: nodeorder
                arguments: {leaderFirst.idleNodeReserve: 10}
              - name: priority
              - name: gang
              - name: predicates
        configurations:
          - name: allocate
            arguments: {percentageOfNodesToScore: 100}
        """);
    List<NodeInfo> nodes =
        List.of(
            node("held").cpu("8").memory("32Gi").gpu(8).used("cpu", "2").build(),
            node("idle-b").cpu("8").memory("32Gi").gpu(8).build(),
            node("used").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build());
    JobInfo timedOut =
        job("timed-out")
            .priority(9)
            .minWorkers(1)
            .waitTime(Duration.ofMinutes(1))
            .waitingSince(T0.minus(Duration.ofMinutes(10)))
            .leader("cpu", "1", "nvidia.com/gpu", "1")
            .placed("timed-out-learner", "held")
            .workers("actor", 1, "cpu", "1")
            .build();
    JobInfo leader = leaderFirst("j", 5, 1);

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, List.of(timedOut, leader), List.of()), nodeorderFirst, T0);

    assertThat(result.decision(timedOut.key()).reason()).isEqualTo(ReasonCode.GANG_TIMEOUT);
    assertThat(result.decision(leader.key()).allocations())
        .isEqualTo(Map.of("j-learner", "idle-b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("idleNodeReserveCases")
  void leaderFirstKeepsIdleGpuNodesOnceTheyAreDownToTheReserve(
      String description,
      int reservePercent,
      List<NodeInfo> nodes,
      List<JobInfo> jobs,
      Map<String, String> expected) {
    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(nodes, jobs, List.of()), withIdleNodeReserve(reservePercent), T0);

    Map<String, String> placed = new HashMap<>();
    jobs.forEach(job -> placed.putAll(result.decision(job.key()).allocations()));
    assertThat(placed).isEqualTo(expected);
  }

  /**
   * Three 8-GPU nodes: "half" has 4 GPUs in use, "idle" none, "full" all 8. With the default
   * arguments (no fixed reserve) a 1-GPU LeaderFirst learner keeps the leader rule — the quietest
   * node, "idle" — unless a pending pod can only go on an idle node; then it takes "half" and the
   * idle node is left whole for that pod, placed later in the same cycle.
   */
  static Stream<Arguments> idleNodesKeptForTheMixCases() {
    return Stream.of(
        Arguments.of(
            "no pod needs a whole node: the learner takes the idle node",
            List.of(leaderFirst("j", 5, 1)),
            Map.of("j-learner", "idle")),
        Arguments.of(
            "a pending 8-GPU pod needs the idle node: the learner takes the half-used one",
            List.of(leaderFirst("j", 5, 1), wholeNode("big", 1, 8)),
            Map.of("j-learner", "half", "big-learner", "idle")),
        Arguments.of(
            "a pending 4-GPU pod fits the half-used node: the learner still takes the idle node",
            List.of(leaderFirst("j", 5, 1), wholeNode("big", 1, 4)),
            Map.of("j-learner", "idle", "big-learner", "half")));
  }

  private static JobInfo wholeNode(String name, int priority, int gpus) {
    return job(name)
        .priority(priority)
        .created(T0.plusSeconds(1))
        .minWorkers(0)
        .leader("cpu", "1", "nvidia.com/gpu", String.valueOf(gpus))
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("idleNodesKeptForTheMixCases")
  void leaderFirstKeepsIdleNodesOnlyForPendingPodsThatNeedThem(
      String description, List<JobInfo> jobs, Map<String, String> expected) {
    List<NodeInfo> nodes =
        List.of(
            node("half").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "4").build(),
            node("idle").cpu("8").memory("32Gi").gpu(8).build(),
            node("full").cpu("8").memory("32Gi").gpu(8).used("nvidia.com/gpu", "8").build());
    SchedulerConfiguration defaults =
        Fixtures.configuration(
            """
            actions: allocate
            tiers:
              - plugins:
                  - name: priority
                  - name: gang
                  - name: predicates
                  - name: nodeorder
            configurations:
              - name: allocate
                arguments: {percentageOfNodesToScore: 100}
            """);

    CycleResult result =
        Fixtures.scheduler().runCycle(new Snapshot(nodes, jobs, List.of()), defaults, T0);

    Map<String, String> placed = new HashMap<>();
    jobs.forEach(job -> placed.putAll(result.decision(job.key()).allocations()));
    assertThat(placed).isEqualTo(expected);
  }

  /**
   * A job names its node order; one that names none takes {@code defaultPolicy}, and a Gang job
   * {@code gangPolicy}: here the one spreads and the other packs on the same empty nodes.
   */
  @Test
  void aJobWithoutAPolicyTakesTheDefaultOrderAndAGangJobTheGangOrder() {
    SchedulerConfiguration configuration =
        Fixtures.configuration(
            """
        actions: allocate
        tiers:
          - plugins:
              - name: gang
              - name: predicates
              - name: nodeorder
                arguments: {defaultPolicy: JobAntiAffinity, gangPolicy: JOB_AFFINITY}
        configurations:
          - name: allocate
            arguments: {percentageOfNodesToScore: 100}
        """);
    JobInfo unnamed =
        job("j").minWorkers(2).leader("cpu", "1").workers("actor", 2, "cpu", "1").build();
    JobInfo gang =
        job("j")
            .basicPolicy(BasicPolicy.GANG)
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1")
            .build();

    CycleResult spread =
        Fixtures.scheduler()
            .runCycle(new Snapshot(emptyNodes(), List.of(unnamed), List.of()), configuration, T0);
    CycleResult packed =
        Fixtures.scheduler()
            .runCycle(new Snapshot(emptyNodes(), List.of(gang), List.of()), configuration, T0);

    assertThat(spread.decision(unnamed.key()).allocations())
        .isEqualTo(Map.of("j-learner", "x", "j-actor-0", "y", "j-actor-1", "z"));
    assertThat(packed.decision(gang.key()).allocations())
        .isEqualTo(Map.of("j-learner", "x", "j-actor-0", "x", "j-actor-1", "x"));
  }

  /**
   * The API server refuses a name outside the CRD's enum, but the core does not rely on it: a job
   * naming a policy no one registered is invalid, saying so, and is not ordered some other way; the
   * others go on.
   */
  @Test
  void aJobNamingAPolicyTheSchedulerDoesNotKnowIsInvalidAndSaysWhy() {
    JobInfo unknown =
        job("random")
            .basicPolicy(new BasicPolicy("Random"))
            .minWorkers(0)
            .leader("cpu", "1")
            .build();
    JobInfo known = single(BIN_PACK, "cpu", "1", "memory", "4Gi");

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(
                new Snapshot(fragmentNodes(), List.of(unknown, known), List.of()),
                CONFIGURATION,
                T0);

    assertThat(result.decision(unknown.key()).reason()).isEqualTo(ReasonCode.INVALID_JOB);
    assertThat(result.decision(unknown.key()).message())
        .isEqualTo(
            "basicPolicy 'Random' is not a policy this scheduler knows;"
                + " expected one of "
                + NodeOrderPlugin.BASIC_POLICIES.stream()
                    .map(BasicPolicy::name)
                    .collect(Collectors.joining(", ")));
    assertThat(result.decision(unknown.key()).allocations()).isEmpty();
    assertThat(result.decision(known.key()).allocations()).isEqualTo(Map.of("j-learner", "a"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachPolicyPicksTheNodeItsFormulaSays(
      String description, List<NodeInfo> nodes, JobInfo job, Map<String, String> expected) {
    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, List.of(job), List.of()), CONFIGURATION, T0);

    assertThat(result.decision(job.key()).allocations()).isEqualTo(expected);
  }
}
