package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Topology as table tests: a snapshot of labelled nodes and a job asking {@code spec.topology} in,
 * the nodes its pods land on (or the reason it waits) out.
 */
class TopologyPlacementTest {

  static final String ZONE = "topology.kubernetes.io/zone";
  static final String RACK = "example.com/rack";
  static final String HOST = "kubernetes.io/hostname";
  static final String GPU = Resource.GPU;

  static SchedulerConfiguration withLevels() {
    return Fixtures.defaultConfiguration()
        .withTopologyLevels(new TopologyLevels(List.of(ZONE, RACK, HOST)));
  }

  /** An 8-GPU node in a zone and a rack, {@code usedGpus} of them taken by pods of other owners. */
  static NodeInfo gpuNode(String name, String zone, String rack, int usedGpus) {
    Fixtures.NodeBuilder builder = node(name).cpu("64").memory("256Gi").gpu(8).label(HOST, name);
    if (zone != null) {
      builder.label(ZONE, zone);
    }
    if (rack != null) {
      builder.label(RACK, rack);
    }
    if (usedGpus > 0) {
      builder.used(GPU, Integer.toString(usedGpus));
    }
    return builder.build();
  }

  /**
   * Three racks of four 8-GPU nodes: r1 has 16 GPUs free (two nodes full), r2 32 (empty), r3 24
   * (one node full).
   */
  static List<NodeInfo> threeRacks() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i <= 2 ? 8 : 0));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", 0));
      nodes.add(gpuNode("r3-n" + i, "z1", "r3", i == 1 ? 8 : 0));
    }
    return nodes;
  }

  /** Zone z1 of two racks of empty 8-GPU nodes: r1 of two (a1, a2), r2 of three (b1 to b3). */
  static List<NodeInfo> zoneOfTwoRacks() {
    return List.of(
        gpuNode("a1", "z1", "r1", 0),
        gpuNode("a2", "z1", "r1", 0),
        gpuNode("b1", "z1", "r2", 0),
        gpuNode("b2", "z1", "r2", 0),
        gpuNode("b3", "z1", "r2", 0));
  }

  static JobInfo gang(String name, int workers, String required, String preferred) {
    return job(name)
        .created(T0)
        .minWorkers(workers)
        .leader("cpu", "1")
        .workers("actor", workers, "cpu", "1", GPU, "8")
        .topology(required, preferred)
        .build();
  }

  static CycleResult cycle(
      SchedulerConfiguration configuration, List<NodeInfo> nodes, JobInfo... jobs) {
    return Fixtures.scheduler()
        .runCycle(Fixtures.snapshot(nodes, List.of(jobs)), configuration, T0.plusSeconds(1));
  }

  static Set<String> labelsOf(List<NodeInfo> nodes, Collection<String> nodeNames, String level) {
    Set<String> values = new TreeSet<>();
    for (NodeInfo node : nodes) {
      if (nodeNames.contains(node.name())) {
        values.add(node.labels().getOrDefault(level, "(none)"));
      }
    }
    return values;
  }

  static Stream<Arguments> rackChoices() {
    return Stream.of(
        Arguments.of(1, "r1"), Arguments.of(2, "r1"), Arguments.of(3, "r3"), Arguments.of(4, "r2"));
  }

  /**
   * Among the racks with room, the gang goes to the one it leaves fullest: 16 GPUs fill r1 exactly,
   * 24 do not fit r1 and leave r3 (24 free) full rather than r2 (32 free).
   */
  @ParameterizedTest(name = "{0} x 8 GPUs go to {1}")
  @MethodSource("rackChoices")
  void theGangGoesWholeIntoTheRackItLeavesFullest(int workers, String rack) {
    List<NodeInfo> nodes = threeRacks();
    CycleResult result = cycle(withLevels(), nodes, gang("big", workers, RACK, null));

    JobDecision decision = result.decision("default/big");
    assertThat(decision.allocations()).hasSize(workers + 1);
    assertThat(labelsOf(nodes, decision.allocations().values(), RACK)).containsExactly(rack);
  }

  @Test
  void aGangNoRackCanHoldWaitsAndSaysSoWithNumbers() {
    List<NodeInfo> nodes = threeRacks();
    CycleResult result = cycle(withLevels(), nodes, gang("big", 5, RACK, null));

    JobDecision decision = result.decision("default/big");
    assertThat(decision.allocations()).isEmpty();
    assertThat(decision.reason()).isEqualTo(ReasonCode.UNSCHEDULABLE);
    assertThat(decision.message())
        .contains(
            "no rack can hold the gang minimum (40 nvidia.com/gpu): the emptiest, r2, has 32 free");
  }

  @Test
  void withoutTopologyTheSameGangSpreadsOverRacks() {
    List<NodeInfo> nodes = threeRacks();
    CycleResult result = cycle(withLevels(), nodes, gang("big", 5, null, null));

    JobDecision decision = result.decision("default/big");
    assertThat(decision.allocations()).hasSize(6);
    assertThat(labelsOf(nodes, decision.allocations().values(), RACK)).hasSizeGreaterThan(1);
  }

  /**
   * Racks with the room in total but not on the nodes the pods fit: 16 GPUs free in r1 as 4 on each
   * of four nodes cannot take two 8-GPU pods; r2 can.
   */
  @Test
  void aRackWithTheRoomOnlyInFragmentsIsPassedOverForOneThatFits() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", 4));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i <= 2 ? 8 : 0));
    }
    nodes.add(gpuNode("r2-n5", "z1", "r2", 0));
    CycleResult result = cycle(withLevels(), nodes, gang("big", 2, RACK, null));

    assertThat(labelsOf(nodes, result.decision("default/big").allocations().values(), RACK))
        .containsExactly("r2");
  }

  @Test
  void whenEveryRackHasTheRoomOnlyInFragmentsTheReasonNamesTheFullestAndWhyItFailed() {
    // Each rack: one node with 8 GPUs free, three with 4; the cluster has room for both 8-GPU
    // pods, each rack 20 GPUs free, yet no rack holds two.
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i == 1 ? 0 : 4));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i == 1 ? 0 : 4));
    }
    CycleResult result = cycle(withLevels(), nodes, gang("big", 2, RACK, null));

    JobDecision decision = result.decision("default/big");
    assertThat(decision.allocations()).isEmpty();
    assertThat(decision.message())
        .contains(
            "no rack can hold the gang minimum (16 nvidia.com/gpu) on its nodes: 2 racks have the"
                + " room in total; in r1, the fullest of them, ")
        .endsWith("0/4 nodes fit actor: 4 Insufficient nvidia.com/gpu");
  }

  /**
   * A job placed again from nothing tries its recorded rack first, yet when no rack holds it the
   * reason still names the fullest rack with room, and what failed there: r2 (16 GPUs free in one
   * node of 8 and two of 4) rather than r1, its leader's (20 free in one node of 8 and three of 4).
   */
  @Test
  void theReasonOfAJobPlacedAgainNamesTheFullestRackNotItsRecordedOne() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i == 1 ? 0 : 4));
    }
    for (int i = 1; i <= 3; i++) {
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i == 1 ? 0 : 4));
    }
    JobInfo job =
        gang("big", 2, RACK, null).toBuilder()
            .stage(Stage.RESCHEDULING)
            .topologyDomains(Map.of(RACK, "r1"))
            .build();

    JobDecision decision = cycle(withLevels(), nodes, job).decision("default/big");

    assertThat(decision.allocations()).isEmpty();
    assertThat(decision.message())
        .contains("2 racks have the room in total; in r2, the fullest of them, ")
        .endsWith("0/3 nodes fit actor: 3 Insufficient nvidia.com/gpu");
  }

  /**
   * The same racks: the gang that found room only in fragments holds r1, the fullest, for the rest
   * of the cycle, so a smaller job after it goes to r2 instead of taking r1's room.
   */
  @Test
  void aGangThatFoundOnlyFragmentsHoldsTheFullestRackFromLaterJobs() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i == 1 ? 0 : 4));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i == 1 ? 0 : 4));
    }
    JobInfo small =
        job("small")
            .created(T0.plusSeconds(5))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", GPU, "4")
            .build();

    CycleResult result = cycle(withLevels(), nodes, gang("big", 2, RACK, null), small);

    assertThat(result.decision("default/big").allocations()).isEmpty();
    assertThat(labelsOf(nodes, result.decision("default/small").allocations().values(), RACK))
        .containsExactly("r2");
    assertThat(
            labelsOf(
                nodes,
                cycle(withLevels(), nodes, small).decision("default/small").allocations().values(),
                RACK))
        .as("alone, BinPack sends it to r1")
        .containsExactly("r1");
  }

  /**
   * Required zone, preferred rack: the gang packs into the rack of the zone it leaves fullest; when
   * no rack of the zone holds it, it still stays in one zone, over as few racks as room allows.
   */
  @Test
  void thePreferredLevelIsPackedInsideTheRequiredDomain() {
    // z1: r1 with 16 free, r2 with 24 free; z2: r3 with 8 free.
    List<NodeInfo> nodes = new ArrayList<>(zoneOfTwoRacks());
    nodes.add(gpuNode("c1", "z2", "r3", 0));

    CycleResult fits = cycle(withLevels(), nodes, gang("two", 2, ZONE, RACK));
    assertThat(labelsOf(nodes, fits.decision("default/two").allocations().values(), RACK))
        .containsExactly("r1");

    CycleResult spans = cycle(withLevels(), nodes, gang("four", 4, ZONE, RACK));
    Collection<String> used = spans.decision("default/four").allocations().values();
    assertThat(spans.decision("default/four").allocations()).hasSize(5);
    assertThat(labelsOf(nodes, used, ZONE)).containsExactly("z1");
    // The emptiest rack first: three pods in r2, one in r1.
    assertThat(labelsOf(nodes, used, RACK)).containsExactly("r1", "r2");
  }

  /**
   * A gang preferring a rack, no rack of which has its 32 GPUs free now (r1 16, r2 24, r3 8) while
   * r2 could hold it empty: it waits and says so, and holds r2 from a later job; once it has waited
   * longer than {@code topology.preferredWait} it spreads over as few racks as room allows.
   */
  @Test
  void aGangWaitsForAPreferredRackThatCouldHoldItThenSpreads() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i <= 2 ? 8 : 0));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i == 1 ? 8 : 0));
      nodes.add(gpuNode("r3-n" + i, "z1", "r3", i <= 3 ? 8 : 0));
    }
    JobInfo small =
        job("small")
            .created(T0.plusSeconds(1))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", GPU, "8")
            .build();

    CycleResult early = cycle(withLevels(), nodes, gang("big", 4, null, RACK), small);
    assertThat(early.decision("default/big").allocations()).isEmpty();
    assertThat(early.decision("default/big").message())
        .contains(
            "no rack has room for the gang minimum (32 nvidia.com/gpu) now: the emptiest, r2, has"
                + " 24 free; a preferred rack is waited for up to 30s");
    assertThat(labelsOf(nodes, early.decision("default/small").allocations().values(), RACK))
        .as("the small job keeps out of the held rack")
        .doesNotContain("r2");

    CycleResult late =
        Fixtures.scheduler()
            .runCycle(
                Fixtures.snapshot(nodes, List.of(gang("big", 4, null, RACK))),
                withLevels(),
                T0.plusSeconds(30));
    Collection<String> used = late.decision("default/big").allocations().values();
    assertThat(late.decision("default/big").allocations())
        .as("after waiting exactly preferredWait")
        .hasSize(5);
    assertThat(labelsOf(nodes, used, RACK))
        .as("the emptiest racks first")
        .containsExactly("r1", "r2");
  }

  /** A gang no rack could hold even empty does not wait for one: it spreads at once. */
  @Test
  void aGangNoPreferredRackCouldEverHoldSpreadsAtOnce() {
    CycleResult result = cycle(withLevels(), threeRacks(), gang("huge", 6, null, RACK));

    assertThat(result.decision("default/huge").allocations()).hasSize(7);
  }

  /**
   * A worker set's own topology: the learner group (leader and one learner worker) keeps the job's
   * preferred host while the actors, preferring none of their own, only stay in the rack. With the
   * whole gang preferring one host, it goes to the host that holds all of it (h2: h1 has too few
   * cpus for the actors too) instead. r2 has too few GPUs for the gang.
   */
  @Test
  void aWorkerSetMayLeaveTheJobsPreferredLevelWhileTheLearnerGroupStaysTight() {
    List<NodeInfo> nodes =
        List.of(
            node("h1").cpu("4").memory("64Gi").gpu(8).label(RACK, "r1").label(HOST, "h1").build(),
            node("h2").cpu("64").memory("64Gi").gpu(8).label(RACK, "r1").label(HOST, "h2").build(),
            node("h3").cpu("64").memory("64Gi").gpu(4).label(RACK, "r2").label(HOST, "h3").build());
    Fixtures.JobBuilder base =
        job("rl")
            .created(T0)
            .minWorkers(5)
            .leader("cpu", "1", GPU, "4")
            .workers("learner", 1, "cpu", "1", GPU, "4")
            .workers("actor", 4, "cpu", "1")
            .topology(RACK, HOST);

    CycleResult whole = cycle(withLevels(), nodes, base.build());
    assertThat(Set.copyOf(whole.decision("default/rl").allocations().values()))
        .containsExactly("h2");

    CycleResult split = cycle(withLevels(), nodes, base.workerSetPreferred("actor", null).build());
    Map<String, String> placed = split.decision("default/rl").allocations();
    assertThat(placed).hasSize(6);
    // Both hosts have 8 GPUs free for the learner group; the tie goes by name.
    assertThat(placed.get("rl-learner")).isEqualTo("h1");
    assertThat(placed.get("rl-learner-0")).isEqualTo("h1");
    assertThat(labelsOf(nodes, placed.values(), RACK)).containsExactly("r1");
  }

  /**
   * Actors whose own preferred level (the rack) is not the job's (the host) go to the rack with the
   * most room first — here r2's empty node — where BinPack alone sends them to r1's half-used one.
   */
  @Test
  void podsPreferringAnotherLevelThanTheJobGoToItsEmptiestDomainFirst() {
    List<NodeInfo> nodes =
        List.of(
            node("a1")
                .cpu("16")
                .memory("64Gi")
                .used("cpu", "8")
                .label(RACK, "r1")
                .label(HOST, "a1")
                .build(),
            node("b1").cpu("64").memory("256Gi").label(RACK, "r2").label(HOST, "b1").build());
    Fixtures.JobBuilder base =
        job("rl")
            .created(T0)
            .minWorkers(4)
            .leader("cpu", "1")
            .workers("actor", 4, "cpu", "1")
            .topology(null, HOST);

    Map<String, String> spread =
        cycle(withLevels(), nodes, base.workerSetPreferred("actor", RACK).build())
            .decision("default/rl")
            .allocations();
    assertThat(spread).hasSize(5);
    for (int i = 0; i < 4; i++) {
      assertThat(spread.get("rl-actor-" + i)).as("actor %d", i).isEqualTo("b1");
    }

    Map<String, String> packed =
        cycle(withLevels(), nodes, base.workerSetPreferred("actor", null).build())
            .decision("default/rl")
            .allocations();
    assertThat(packed.get("rl-actor-0")).as("BinPack without the rack preference").isEqualTo("a1");
  }

  /**
   * Elastic actors of a running job stay in its required zone and look in the leader's rack first,
   * although BinPack alone would send them to the fuller rack r2; once r1 is full they go to r2,
   * and never to z2.
   */
  @Test
  void elasticActorsPreferTheLeadersRackThenTheNearestAndNeverLeaveTheRequiredZone() {
    List<NodeInfo> nodes =
        List.of(
            gpuNode("a1", "z1", "r1", 0),
            gpuNode("a2", "z1", "r1", 0),
            gpuNode("b1", "z1", "r2", 6),
            gpuNode("c1", "z2", "r3", 7));
    JobInfo running =
        job("rl")
            .created(T0)
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 20, "cpu", "1", GPU, "1")
            .topology(ZONE, RACK)
            .stage(Stage.RUNNING)
            .running("a1", 1)
            .build();

    CycleResult result = cycle(withLevels(), nodes, running);

    Map<String, String> placed = result.decision("default/rl").allocations();
    // 16 GPUs in r1 and 2 in r2: 18 actors; z2's free GPU is out of bounds.
    assertThat(placed).hasSize(19);
    assertThat(placed.values()).doesNotContain("c1");
    assertThat(placed.values().stream().filter("b1"::equals).count()).isEqualTo(2);
  }

  /** The same elastic job without a preferred level fills b1 first: BinPack scores it fuller. */
  @Test
  void withoutAPreferredLevelElasticActorsFollowTheNodeOrderInsideTheRequiredZone() {
    List<NodeInfo> nodes =
        List.of(
            gpuNode("a1", "z1", "r1", 0),
            gpuNode("a2", "z1", "r1", 0),
            gpuNode("b1", "z1", "r2", 6),
            gpuNode("c1", "z2", "r3", 7));
    JobInfo running =
        job("rl")
            .created(T0)
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 3, "cpu", "1", GPU, "1")
            .topology(ZONE, null)
            .stage(Stage.RUNNING)
            .running("a1", 1)
            .build();

    CycleResult result = cycle(withLevels(), nodes, running);

    Map<String, String> placed = result.decision("default/rl").allocations();
    assertThat(placed.get("rl-actor-1")).isEqualTo("b1");
    assertThat(placed.get("rl-actor-2")).isEqualTo("b1");
  }

  /** A lost learner comes back in its actors' rack, though another rack is emptier. */
  @Test
  void aLostLeaderIsPlacedAgainInTheRackItsActorsAreIn() {
    List<NodeInfo> nodes =
        List.of(
            gpuNode("a1", "z1", "r1", 4),
            gpuNode("a2", "z1", "r1", 0),
            gpuNode("b1", "z1", "r2", 0),
            gpuNode("b2", "z1", "r2", 0));
    JobInfo lostLeader =
        job("rl")
            .created(T0)
            .minWorkers(2)
            .leader("cpu", "1", GPU, "8")
            .workers("actor", 2, "cpu", "1", GPU, "2")
            .topology(RACK, null)
            .stage(Stage.RUNNING)
            .placed("rl-actor-0", "a1")
            .placed("rl-actor-1", "a1")
            .build();

    CycleResult result = cycle(withLevels(), nodes, lostLeader);

    assertThat(result.decision("default/rl").allocations()).containsEntry("rl-learner", "a2");
  }

  static Stream<Arguments> placedAgainFromNothing() {
    return Stream.of(
        // No record: the rack left fullest (r1 fits 16 GPUs exactly).
        Arguments.of(2, Map.of(), "r1"),
        // Its leader was in r2: back to r2 though r1 would be left fuller.
        Arguments.of(2, Map.of(RACK, "r2"), "r2"),
        Arguments.of(2, Map.of(RACK, "r3"), "r3"),
        // r1 cannot hold 24 GPUs: the domain order's choice (r3 left full) instead.
        Arguments.of(3, Map.of(RACK, "r1"), "r3"),
        // A rack no node carries any more (its nodes gone): the domain order's choice.
        Arguments.of(2, Map.of(RACK, "r9"), "r1"));
  }

  /**
   * A job placed again from nothing (its leader lost, every pod deleted) goes back to the rack its
   * leader was last in when that rack can hold its minimum, else where the domain order says.
   */
  @ParameterizedTest(name = "{0} x 8 GPUs recorded in {1} go to {2}")
  @MethodSource("placedAgainFromNothing")
  void aJobPlacedAgainFromNothingGoesBackToItsRecordedRackWhenItHasTheRoom(
      int workers, Map<String, String> recorded, String rack) {
    List<NodeInfo> nodes = threeRacks();
    JobInfo job =
        gang("rl", workers, RACK, null).toBuilder()
            .stage(Stage.RESCHEDULING)
            .topologyDomains(recorded)
            .build();

    JobDecision decision = cycle(withLevels(), nodes, job).decision("default/rl");

    assertThat(decision.allocations()).hasSize(workers + 1);
    assertThat(labelsOf(nodes, decision.allocations().values(), RACK)).containsExactly(rack);
    assertThat(decision.topologyDomains())
        .as("recorded anew")
        .containsExactly(Map.entry(RACK, rack));
  }

  /** Inside the required zone, the preferred rack recorded for the leader is tried first too. */
  @Test
  void aJobPlacedAgainFromNothingGoesBackToItsRecordedPreferredRack() {
    List<NodeInfo> nodes = zoneOfTwoRacks();
    JobInfo job =
        gang("rl", 2, ZONE, RACK).toBuilder()
            .stage(Stage.RESCHEDULING)
            .topologyDomains(Map.of(ZONE, "z1", RACK, "r2"))
            .build();

    JobDecision decision = cycle(withLevels(), nodes, job).decision("default/rl");

    assertThat(labelsOf(nodes, decision.allocations().values(), RACK)).containsExactly("r2");
    assertThat(decision.topologyDomains())
        .containsOnly(Map.entry(ZONE, "z1"), Map.entry(RACK, "r2"));
  }

  /**
   * What a decision records: the domains of the node the leader is on, for the levels the job asks
   * (not the host level it does not ask); while the leader is not placed, what was recorded before;
   * nothing for a job asking no level.
   */
  @Test
  void aDecisionRecordsTheLeadersDomainsOfTheLevelsTheJobAsks() {
    List<NodeInfo> nodes = threeRacks();
    JobInfo placed = gang("placed", 2, RACK, null);
    JobInfo waiting =
        gang("waiting", 12, RACK, null).toBuilder().topologyDomains(Map.of(RACK, "r2")).build();
    JobInfo plain = gang("plain", 1, null, null);

    CycleResult result = cycle(withLevels(), nodes, placed, waiting, plain);

    assertThat(result.decision("default/placed").topologyDomains())
        .containsExactly(Map.entry(RACK, "r1"));
    assertThat(result.decision("default/waiting").allocations()).isEmpty();
    assertThat(result.decision("default/waiting").topologyDomains())
        .containsExactly(Map.entry(RACK, "r2"));
    assertThat(result.decision("default/plain").allocations()).hasSize(2);
    assertThat(result.decision("default/plain").topologyDomains()).isEmpty();
  }

  @Test
  void anUnknownLevelIsAnInvalidJobNamingTheFieldAndTheLevelsAndPlacementsStand() {
    List<NodeInfo> nodes = threeRacks();
    JobInfo unknown = gang("typo", 1, "example.com/row", null);
    JobInfo narrower =
        job("wide").created(T0).minWorkers(0).leader("cpu", "1").topology(RACK, ZONE).build();
    JobInfo placedBefore =
        job("held")
            .created(T0)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1")
            .topology(null, "example.com/row")
            .running("r2-n1", 1)
            .build();

    CycleResult result = cycle(withLevels(), nodes, unknown, narrower, placedBefore);

    assertThat(result.decision("default/typo").reason()).isEqualTo(ReasonCode.INVALID_JOB);
    assertThat(result.decision("default/typo").message())
        .isEqualTo(
            "spec.topology.required: unknown topology level \"example.com/row\"; the scheduler's"
                + " levels are topology.kubernetes.io/zone, example.com/rack,"
                + " kubernetes.io/hostname");
    assertThat(result.decision("default/wide").message())
        .isEqualTo(
            "spec.topology.preferred: the preferred level \"topology.kubernetes.io/zone\" must be"
                + " narrower than the required level \"example.com/rack\"");
    assertThat(result.decision("default/held").reason()).isEqualTo(ReasonCode.INVALID_JOB);
    assertThat(result.decision("default/held").allocations())
        .containsOnlyKeys("held-learner", "held-actor-0");
  }

  @Test
  void aJobAskingTopologyOfASchedulerWithoutLevelsIsToldTheConfigurationListsNone() {
    CycleResult result =
        cycle(Fixtures.defaultConfiguration(), threeRacks(), gang("big", 1, RACK, null));

    assertThat(result.decision("default/big").message())
        .isEqualTo(
            "spec.topology.required: unknown topology level \"example.com/rack\"; the scheduler's"
                + " configuration lists no topology levels (topology.levels)");
  }

  /** Levels configured change nothing for jobs that ask no topology. */
  @Test
  void jobsWithoutTopologyAreDecidedAsWithoutLevels() {
    List<NodeInfo> nodes = threeRacks();
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      jobs.add(
          job("j" + i)
              .created(T0.plusSeconds(i))
              .minWorkers(1)
              .leader("cpu", "1")
              .workers("actor", 3, "cpu", "1", GPU, Integer.toString(1 + i))
              .build());
    }
    Snapshot snapshot = Fixtures.snapshot(nodes, jobs);

    CycleResult with = Fixtures.scheduler().runCycle(snapshot, withLevels(), T0);
    CycleResult without =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(with.decisions()).isEqualTo(without.decisions());
  }

  /**
   * Preemption for a gang with a required rack takes its victims inside one rack. Every node is
   * full; the cheapest victims pod by pod (the priority-1 jobs on r1-n1 and r2-n1) would split the
   * gang over both racks, so the victims are the whole of r1 instead.
   */
  @Test
  void preemptionForARequiredRackEvictsInsideOneRack() {
    List<NodeInfo> nodes =
        List.of(
            gpuNode("r1-n1", "z1", "r1", 0),
            gpuNode("r1-n2", "z1", "r1", 0),
            gpuNode("r2-n1", "z1", "r2", 0),
            gpuNode("r2-n2", "z1", "r2", 0));
    List<JobInfo> jobs = new ArrayList<>();
    int[] priorities = {1, 3, 1, 3};
    for (int i = 0; i < nodes.size(); i++) {
      jobs.add(
          job("low" + i)
              .created(T0.minusSeconds(100 + i))
              .priority(priorities[i])
              .minWorkers(1)
              .leader("cpu", "1")
              .workers("actor", 1, "cpu", "1", GPU, "8")
              .stage(Stage.RUNNING)
              .running(nodes.get(i).name(), 1)
              .build());
    }
    Fixtures.JobBuilder preemptor =
        job("big")
            .created(T0)
            .priority(9)
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1", GPU, "8");
    SchedulerConfiguration preempting =
        Fixtures.preemptingConfiguration()
            .withTopologyLevels(new TopologyLevels(List.of(ZONE, RACK, HOST)));

    List<JobInfo> withTopology = new ArrayList<>(jobs);
    withTopology.add(preemptor.topology(RACK, null).build());
    CycleResult result =
        Fixtures.scheduler()
            .runCycle(Fixtures.snapshot(nodes, withTopology), preempting, T0.plusSeconds(1));

    assertThat(victimJobs(result)).containsExactlyInAnyOrder("default/low0", "default/low1");
    assertThat(result.decision("default/big").reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);

    List<JobInfo> withoutTopology = new ArrayList<>(jobs);
    withoutTopology.add(preemptor.topology(null, null).build());
    CycleResult blind =
        Fixtures.scheduler()
            .runCycle(Fixtures.snapshot(nodes, withoutTopology), preempting, T0.plusSeconds(1));
    assertThat(victimJobs(blind)).containsExactlyInAnyOrder("default/low0", "default/low2");
  }

  /** Free room counts only the nodes the job's pods may use: here the a100 nodes. */
  @Test
  void aDomainsFreeRoomCountsOnlyTheNodesTheGangMayUse() {
    List<NodeInfo> nodes = new ArrayList<>();
    nodes.add(
        node("a1").cpu("64").memory("256Gi").gpu(8).label(RACK, "r1").label("gpu", "a100").build());
    for (int i = 1; i <= 3; i++) {
      nodes.add(
          node("v" + i)
              .cpu("64")
              .memory("256Gi")
              .gpu(8)
              .label(RACK, "r1")
              .label("gpu", "v100")
              .build());
    }
    nodes.add(
        node("a2").cpu("64").memory("256Gi").gpu(8).label(RACK, "r2").label("gpu", "a100").build());
    nodes.add(
        node("a3").cpu("64").memory("256Gi").gpu(8).label(RACK, "r2").label("gpu", "a100").build());
    nodes.add(
        node("v4").cpu("64").memory("256Gi").gpu(8).label(RACK, "r2").label("gpu", "v100").build());
    JobInfo a100 =
        job("big")
            .created(T0)
            .minWorkers(3)
            .leader("cpu", "1")
            .workers("actor", 3, "cpu", "1", GPU, "8")
            .nodeSelector("gpu", "a100")
            .topology(RACK, null)
            .build();

    CycleResult result = cycle(withLevels(), nodes, a100);

    assertThat(result.decision("default/big").message())
        .contains(
            "no rack can hold the gang minimum (24 nvidia.com/gpu): the emptiest, r2, has 16 free");
  }

  /**
   * Only the first waiting gang of a queue holds a domain in a cycle: a second one waiting too
   * leaves the other rack to a small job.
   */
  @Test
  void onlyTheFirstWaitingGangOfAQueueHoldsADomain() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      nodes.add(gpuNode("r1-n" + i, "z1", "r1", i == 1 ? 8 : 0));
      nodes.add(gpuNode("r2-n" + i, "z1", "r2", i == 1 ? 8 : 0));
    }
    JobInfo first = gang("first", 2, RACK, null);
    JobInfo second =
        job("second")
            .created(T0.plusSeconds(1))
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1", GPU, "8")
            .topology(RACK, null)
            .build();
    JobInfo small =
        job("small")
            .created(T0.plusSeconds(2))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", GPU, "8")
            .build();

    // Allocate alone: enqueue would keep the second gang and the small job out for the first's
    // sake.
    SchedulerConfiguration allocateOnly =
        Fixtures.configuration(
                DefaultSchedulerConfiguration.YAML.replace(
                    "enqueue, reclaim, allocate, backfill", "allocate, backfill"))
            .withTopologyLevels(new TopologyLevels(List.of(ZONE, RACK, HOST)));
    CycleResult result = cycle(allocateOnly, nodes, first, second, small);

    assertThat(result.decision("default/first").allocations()).isEmpty();
    assertThat(result.decision("default/second").allocations()).isEmpty();
    // r1 is held for the first gang (the emptiest with the most free, first by name); the small
    // job takes r2's free node.
    assertThat(result.decision("default/small").allocations())
        .containsEntry("small-actor-0", "r2-n2");
  }

  private static Set<String> victimJobs(CycleResult result) {
    Set<String> jobs = new TreeSet<>();
    result.allVictims().forEach(victim -> jobs.add(victim.jobKey()));
    return jobs;
  }
}
