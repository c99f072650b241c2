package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sampling search (any {@code percentageOfNodesToScore} below 100; the default on large clusters)
 * stops after enough feasible nodes and starts the next search for the same constraints where the
 * previous one stopped, so that successive pods spread over the cluster instead of scoring the same
 * first nodes; it never misses a node when one fits. And the never-fits verdict at its edges.
 */
class SampledNodeSearchTest {

  private static Session session(int nodeCount, String... jobCpu) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(String.format("node-%02d", i)).cpu("4").memory("8Gi").build());
    }
    Fixtures.JobBuilder job = job("j").minWorkers(0).leader("cpu", "1");
    for (int i = 0; i < jobCpu.length; i++) {
      job.workers("w" + i, 1, "cpu", jobCpu[i]);
    }
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(nodes, List.of(job.build()), List.of()),
            Fixtures.defaultConfiguration(),
            T0);
  }

  private static TaskState task(Session session, int index) {
    return session.job("default/j").orElseThrow().tasks().get(index);
  }

  @Test
  void successiveSearchesStartWhereThePreviousOneStopped() {
    Session session = session(20);
    TaskState leader = task(session, 0);
    NodeSearch search = session.nodeSearch();

    // 50% of 20 nodes (at least 5): each search looks at 10 equally good nodes and takes the first.
    assertThat(search.findBest(leader, 50, 5).node().name()).isEqualTo("node-00");
    assertThat(search.findBest(leader, 50, 5).node().name()).isEqualTo("node-10");
    assertThat(search.findBest(leader, 50, 5).node().name()).isEqualTo("node-00");
  }

  @Test
  void aSampleSkipsFullNodesAndStillFindsTheOnlyNodeWithRoom() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      nodes.add(
          node(String.format("node-%02d", i))
              .cpu("4")
              .memory("8Gi")
              .used("cpu", i == 13 ? "0" : "4")
              .build());
    }
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    nodes,
                    List.of(
                        job("j")
                            .minWorkers(0)
                            .leader("cpu", "1")
                            .workers("w", 1, "cpu", "4")
                            .build()),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0);
    NodeSearch search = session.nodeSearch();

    NodeSearch.Result result = search.findBest(task(session, 1), 10, 1);
    assertThat(result.node().name()).isEqualTo("node-13");

    session.newStatement().allocate(task(session, 1), result.node());
    NodeSearch.Result none = search.findBest(task(session, 0), 10, 1);
    assertThat(none.found()).isFalse();
    assertThat(none.diagnosis().fittingNodes()).isZero();
    assertThat(none.diagnosis().totalNodes()).isEqualTo(20);
  }

  @Test
  void anExplicitPercentageSamplesThatShareOfTheCandidates() {
    assertThat(NodeSearch.wantedFeasibleNodes(400, 400, 50, 100)).isEqualTo(200);
    assertThat(NodeSearch.wantedFeasibleNodes(400, 400, 10, 100))
        .as("never below the minimum")
        .isEqualTo(100);
    assertThat(NodeSearch.wantedFeasibleNodes(400, 80, 50, 100))
        .as("all, when fewer than the minimum")
        .isEqualTo(80);
    assertThat(NodeSearch.wantedFeasibleNodes(1100, 1100, 0, 100))
        .as("adaptive: 50% - 1100/125 = 42%")
        .isEqualTo(462);
  }

  @ParameterizedTest(name = "{0} cpu, {1} memory")
  @CsvSource({"4, 8Gi, false", "5, 8Gi, true", "4, 9Gi, true", "5, 9Gi, true"})
  void aPodNeverFitsOnlyWhenNoAdmissibleNodeCouldHoldItEvenEmpty(
      String cpu, String memory, boolean never) {
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(
                        node("small").cpu("2").memory("8Gi").build(),
                        node("large").cpu("4").memory("8Gi").used("cpu", "4").build()),
                    List.of(job("big").minWorkers(0).leader("cpu", cpu, "memory", memory).build()),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    Optional<String> reason = session.nodeSearch().neverFitsReason(task(session, "default/big"));

    assertThat(reason.isPresent()).isEqualTo(never);
  }

  @Test
  void theNeverFitsReasonNamesOnlyTheResourcesNoNodeHasEnoughOf() {
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(
                        node("a").cpu("2").memory("16Gi").build(),
                        node("b").cpu("8").memory("4Gi").build()),
                    List.of(
                        job("wide").minWorkers(0).leader("cpu", "8", "memory", "16Gi").build(),
                        job("huge").minWorkers(0).leader("cpu", "9", "memory", "16Gi").build()),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    assertThat(session.nodeSearch().neverFitsReason(task(session, "default/wide")))
        .hasValue(
            "pod learner is larger than each of the 2 admissible nodes (no single node holds all of its request)");
    assertThat(session.nodeSearch().neverFitsReason(task(session, "default/huge")))
        .hasValue("pod learner is larger than each of the 2 admissible nodes (cpu 9 > 8)");
  }

  private static TaskState task(Session session, String job) {
    return session.job(job).orElseThrow().leader();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"tainted, true", "notReady, false", "cordoned, false"})
  void onlyANodeRejectedForGoodCanMakeAPodNeverFit(String bigNode, boolean never) {
    Fixtures.NodeBuilder big = node("big").cpu("8").memory("8Gi");
    switch (bigNode) {
      case "tainted" ->
          big.taint("dedicated", "infer", io.tyrl.arranger.scheduler.api.TaintEffect.NO_SCHEDULE);
      case "notReady" -> big.notReady();
      default -> big.cordoned();
    }
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(node("small").cpu("2").memory("8Gi").build(), big.build()),
                    List.of(job("j").minWorkers(0).leader("cpu", "4").build()),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    assertThat(session.nodeSearch().neverFitsReason(task(session, "default/j")).isPresent())
        .isEqualTo(never);
  }

  @Test
  void onATieTheNodeAlreadyHoldingThePodsOfTheJobWins() {
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(
                    List.of(
                        node("node-0").cpu("8").memory("8Gi").used("cpu", "2").build(),
                        node("node-1").cpu("8").memory("8Gi").build()),
                    List.of(
                        job("j")
                            .minWorkers(0)
                            .leader("cpu", "2")
                            .workers("w", 1, "cpu", "1")
                            .placed("j-learner", "node-1")
                            .build()),
                    List.of()),
                Fixtures.defaultConfiguration(),
                T0);

    // Both nodes have 2 cpu in use: equal scores; the job's own node comes first.
    assertThat(session.nodeSearch().findBest(task(session, 1), 0, 100).node().name())
        .isEqualTo("node-1");
  }
}
