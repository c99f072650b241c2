package io.tyrl.arranger.scheduler.sim;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Topology over many cycles, each run on the snapshot the previous one left: a gang waiting for a
 * whole rack is not starved by small jobs that arrive every cycle and would otherwise take every
 * node freed in every rack. What keeps it from starving is the hold: the gang, first in job order,
 * keeps the rack it is likeliest to fit (the one with the most GPUs free) for the rest of each
 * cycle, so the small jobs go to the other rack while the held one drains. With the hold switched
 * off, the same run leaves the gang waiting for all 30 cycles: the small jobs arriving as others
 * end keep both racks at 24 free GPUs, one node short.
 */
class TopologyOverTimeTest {

  private static final String RACK = "example.com/rack";
  private static final String GPU = Resource.GPU;

  private static SchedulerConfiguration configuration() {
    return Fixtures.defaultConfiguration()
        .withTopologyLevels(new TopologyLevels(List.of(RACK, "kubernetes.io/hostname")));
  }

  /** Two racks of five 8-GPU nodes, listed rack by rack alternately (r1-n1, r2-n1, r1-n2, …). */
  private static List<NodeInfo> twoRacksOfFive() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      for (String rack : List.of("r1", "r2")) {
        nodes.add(node(rack + "-n" + i).cpu("64").memory("256Gi").gpu(8).label(RACK, rack).build());
      }
    }
    return nodes;
  }

  /** A one-node job (a cpu leader and one 8-GPU worker), running on {@code node} if not null. */
  private static JobInfo oneNode(String name, int createdSecond, String node) {
    Fixtures.JobBuilder job =
        job(name)
            .created(T0.plusSeconds(createdSecond))
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", GPU, "8");
    return node == null ? job.build() : job.stage(Stage.RUNNING).running(node, 1).build();
  }

  /**
   * The jobs running when the runs begin: n5 of each rack runs a job that never ends, so no rack
   * ever has more than 32 GPUs free; nodes 1 and 2 of each rack run small jobs that end at cycles 2
   * to 5 ({@code endsAt}).
   */
  private static void runningJobs(List<JobInfo> jobs, Map<String, Integer> endsAt) {
    jobs.add(oneNode("forever-r1", -100, "r1-n5"));
    jobs.add(oneNode("forever-r2", -100, "r2-n5"));
    int ending = 2;
    for (int i = 1; i <= 2; i++) {
      for (String rack : List.of("r1", "r2")) {
        String name = "old-" + rack + "-" + i;
        jobs.add(oneNode(name, -100, rack + "-n" + i));
        endsAt.put("default/" + name, ending++);
      }
    }
  }

  @Test
  void aGangWaitingForAWholeRackIsPlacedWhileSmallJobsKeepArriving() {
    List<NodeInfo> nodes = twoRacksOfFive();
    List<JobInfo> jobs = new ArrayList<>();
    Map<String, Integer> endsAt = new HashMap<>();
    runningJobs(jobs, endsAt);
    jobs.add(
        job("big")
            .created(T0.minusSeconds(10))
            .minWorkers(4)
            .leader("cpu", "1")
            .workers("actor", 4, "cpu", "1", GPU, "8")
            .topology(RACK, null)
            .build());
    ClusterSimulator cluster =
        new ClusterSimulator(Fixtures.scheduler(), configuration(), nodes, jobs, List.of())
            .followingControllerStages();

    int placedAt = -1;
    int smallPlaced = 0;
    Set<String> bigRacks = new TreeSet<>();
    for (int cycle = 1; cycle <= 30 && placedAt < 0; cycle++) {
      // A small job arrives every cycle, as often as one ends; each ends four cycles after it is
      // placed.
      cluster.submit(oneNode("s" + cycle, cycle, null));
      for (Map.Entry<String, Integer> end : Map.copyOf(endsAt).entrySet()) {
        if (end.getValue() == cycle) {
          cluster.complete(end.getKey());
          endsAt.remove(end.getKey());
        }
      }
      CycleResult result = cluster.cycle(T0.plusSeconds(cycle));
      for (JobInfo job : cluster.jobs()) {
        boolean placedNow =
            job.name().startsWith("s")
                && !endsAt.containsKey(job.key())
                && !result.decision(job.key()).allocations().isEmpty();
        if (placedNow) {
          endsAt.put(job.key(), cycle + 4);
          smallPlaced++;
        }
      }
      Map<String, String> big = result.decision("default/big").allocations();
      if (big.size() == 5) {
        placedAt = cycle;
        for (String nodeName : big.values()) {
          bigRacks.add(nodeName.substring(0, 2));
        }
      }
    }

    assertThat(placedAt).as("cycle the gang was placed at").isBetween(1, 5);
    assertThat(bigRacks).hasSize(1);
    assertThat(smallPlaced).as("small jobs placed meanwhile").isGreaterThanOrEqualTo(2);
  }

  /**
   * A gang that only prefers a rack: no rack has its 32 GPUs free at first (16 in each), though
   * each could once its small jobs end; a small job arrives every cycle meanwhile. With the default
   * wait it holds the likelier rack for up to 30 s and is placed in one rack as the old jobs end;
   * without it, it spreads over both racks at once.
   */
  @Test
  void aGangPreferringARackWaitsForOneWithinTheWaitInsteadOfSpreading() {
    assertThat(preferredGangRun(configuration()))
        .as("racks the gang started in, with the default wait")
        .containsExactly("r1");
    assertThat(
            preferredGangRun(
                Fixtures.defaultConfiguration()
                    .withTopologyLevels(
                        new TopologyLevels(
                            List.of(RACK, "kubernetes.io/hostname"), java.time.Duration.ZERO))))
        .as("racks the gang started in, with preferredWait 0")
        .containsExactly("r1", "r2");
  }

  /** Runs the gang preferring a rack among jobs ending from cycle 2 on; the racks it started in. */
  private static Set<String> preferredGangRun(SchedulerConfiguration configuration) {
    List<JobInfo> jobs = new ArrayList<>();
    Map<String, Integer> endsAt = new HashMap<>();
    runningJobs(jobs, endsAt);
    jobs.add(
        job("big")
            .created(T0)
            .minWorkers(4)
            .leader("cpu", "1")
            .workers("actor", 4, "cpu", "1", GPU, "8")
            .topology(null, RACK)
            .build());
    ClusterSimulator cluster =
        new ClusterSimulator(Fixtures.scheduler(), configuration, twoRacksOfFive(), jobs, List.of())
            .followingControllerStages();
    for (int cycle = 1; cycle <= 20; cycle++) {
      // A one-node job arrives every cycle and runs until the run ends: room freed in a rack goes
      // to
      // them unless the gang holds it.
      cluster.submit(oneNode("s" + cycle, cycle, null));
      for (Map.Entry<String, Integer> end : Map.copyOf(endsAt).entrySet()) {
        if (end.getValue() == cycle) {
          cluster.complete(end.getKey());
          endsAt.remove(end.getKey());
        }
      }
      Map<String, String> big =
          cluster.cycle(T0.plusSeconds(cycle)).decision("default/big").allocations();
      if (big.size() == 5) {
        Set<String> racks = new TreeSet<>();
        for (String nodeName : big.values()) {
          racks.add(nodeName.substring(0, 2));
        }
        return racks;
      }
    }
    return Set.of();
  }

  /**
   * A learner lost with its node comes back in its actors' rack, over many cycles of the default
   * configuration with a one-node job arriving every cycle and old ones ending one at a time. The
   * gang (24 GPUs, a required rack) first fills r2; small jobs then fill r1 down to 24 free. r2's
   * leader node fails: the job is rescheduled with every pod deleted, leaving r2 32 GPUs free and
   * r1 24 — the domain order alone would now pick r1, the rack left fullest. With the domain
   * recorded in its decisions it goes back to r2; with the record dropped, the same run sends it to
   * r1.
   */
  @Test
  void aJobWhoseLeaderWasLostComesBackInItsRackWhileSmallJobsKeepArriving() {
    assertThat(rescheduledRun(true))
        .as("racks after the reschedule, recorded")
        .containsExactly("r2");
    assertThat(rescheduledRun(false))
        .as("racks after the reschedule, the record dropped")
        .containsExactly("r1");
  }

  /** The racks the rescheduled gang is placed in; empty when it was not placed again. */
  private static Set<String> rescheduledRun(boolean keepRecord) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 1; i <= 7; i++) {
      for (String rack : List.of("r1", "r2")) {
        if (rack.equals("r2") || i <= 6) {
          nodes.add(
              node(rack + "-n" + i).cpu("64").memory("256Gi").gpu(8).label(RACK, rack).build());
        }
      }
    }
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(oneNode("forever-a", -100, "r2-n6"));
    jobs.add(oneNode("forever-b", -100, "r2-n7"));
    jobs.add(
        job("rl")
            .created(T0)
            .minWorkers(2)
            .leader("cpu", "1", GPU, "8")
            .workers("actor", 2, "cpu", "1", GPU, "8")
            .topology(RACK, null)
            .build());
    ClusterSimulator cluster =
        new ClusterSimulator(Fixtures.scheduler(), configuration(), nodes, jobs, List.of())
            .followingControllerStages();

    // r1 48 free, r2 40: the gang fills r2 to 16 free, the rack it leaves fullest.
    Map<String, String> first =
        cluster.cycle(T0.plusSeconds(1)).decision("default/rl").allocations();
    assertThat(first).hasSize(3);
    assertThat(racksOf(first)).containsExactly("r2");
    String leaderNode = first.get("rl-learner");

    Map<String, Integer> endsAt = new HashMap<>();
    int lostAt = 6;
    Set<String> after = Set.of();
    for (int cycle = 2; cycle <= 20 && after.isEmpty(); cycle++) {
      // Three small jobs take r1's room before the loss; later ones arrive as others end.
      if (cycle <= 4 || cycle > lostAt) {
        cluster.submit(oneNode("s" + cycle, cycle, null));
      }
      for (Map.Entry<String, Integer> end : Map.copyOf(endsAt).entrySet()) {
        if (end.getValue() == cycle) {
          cluster.complete(end.getKey());
          endsAt.remove(end.getKey());
        }
      }
      if (cycle == lostAt) {
        List<NodeInfo> left = new ArrayList<>();
        for (NodeInfo node : nodes) {
          if (!node.name().equals(leaderNode)) {
            left.add(node);
          }
        }
        cluster.replaceNodes(left);
        cluster.reschedule("default/rl");
        if (!keepRecord) {
          JobInfo forgotten =
              cluster.job("default/rl").toBuilder().topologyDomains(Map.of()).build();
          cluster.complete("default/rl");
          cluster.submit(forgotten);
        }
      }
      CycleResult result = cluster.cycle(T0.plusSeconds(cycle));
      for (JobInfo job : cluster.jobs()) {
        boolean smallPlacedNow =
            job.name().startsWith("s")
                && !endsAt.containsKey(job.key())
                && !result.decision(job.key()).allocations().isEmpty();
        if (smallPlacedNow && cycle > lostAt) {
          // Those arriving after the loss end three cycles later, freeing a node at a time.
          endsAt.put(job.key(), cycle + 3);
        }
      }
      Map<String, String> rl = result.decision("default/rl").allocations();
      if (cycle > lostAt && rl.size() == 3) {
        after = racksOf(rl);
      }
    }
    return after;
  }

  private static Set<String> racksOf(Map<String, String> allocations) {
    Set<String> racks = new TreeSet<>();
    for (String nodeName : allocations.values()) {
      racks.add(nodeName.substring(0, 2));
    }
    return racks;
  }
}
