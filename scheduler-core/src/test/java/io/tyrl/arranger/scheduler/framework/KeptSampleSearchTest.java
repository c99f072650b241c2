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
import org.junit.jupiter.api.Test;

/**
 * A sampled search keeps the nodes it weighed for the next pod of the same shape of the same job
 * ({@link KeptSample}): that pod is weighed against the same nodes, those that changed scored and
 * checked again, instead of a fresh sample further on. Twenty nodes of 4 cpu, searched at 50 % (ten
 * feasible nodes wanted, at least five): a fresh search after one that stopped at node-09 starts at
 * node-10.
 */
class KeptSampleSearchTest {

  /** A job of a leader and {@code actors} actors of one shape asking {@code actorCpu} each. */
  private static Session session(int actors, String actorCpu) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      nodes.add(node(String.format("node-%02d", i)).cpu("4").memory("8Gi").build());
    }
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(
                nodes,
                List.of(
                    job("j")
                        .minWorkers(0)
                        .leader("cpu", "1")
                        .workers("actor", actors, "cpu", actorCpu)
                        .build()),
                List.of()),
            Fixtures.defaultConfiguration(),
            T0);
  }

  private static TaskState task(Session session, int index) {
    return session.job("default/j").orElseThrow().tasks().get(index);
  }

  private static String best(Session session, TaskState task) {
    NodeSearch.Result result = session.nodeSearch().findBest(task, 50, 5);
    return result.found() ? result.node().name() : "none";
  }

  @Test
  void theNextActorOfTheSameShapeIsWeighedAgainstTheSameNodes() {
    Session session = session(3, "1");

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    // Nothing changed: the same ten nodes, the same best; a fresh sample would start at node-10.
    assertThat(best(session, task(session, 2))).isEqualTo("node-00");
    assertThat(best(session, task(session, 3))).isEqualTo("node-00");
  }

  @Test
  void theLeaderIsNeverWeighedAgainstAKeptSample() {
    Session session = session(1, "1");

    assertThat(best(session, task(session, 0))).isEqualTo("node-00");
    assertThat(best(session, task(session, 0))).isEqualTo("node-10");
  }

  @Test
  void aPodOfAnotherShapeTakesAFreshSample() {
    Session session = session(1, "1");

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    assertThat(best(session, task(session, 0)))
        .as("the leader, after the actor")
        .isEqualTo("node-10");
  }

  /**
   * An actor of 4 cpu fills a node: once the first is placed on node-00, the next is not told
   * node-00 from its kept score, but checked there again and sent to the next node of the sample.
   */
  @Test
  void aKeptNodeThatChangedIsCheckedAgain() {
    Session session = session(3, "4");
    Statement statement = session.newStatement();

    String first = best(session, task(session, 1));
    statement.allocate(
        task(session, 1), session.nodeSearch().findBest(task(session, 1), 50, 5).node());
    String second = best(session, task(session, 2));

    assertThat(first).isEqualTo("node-00");
    assertThat(second).isEqualTo("node-01");
  }

  /**
   * Actors of 4 cpu fill one node each: after five of the sample's ten nodes are filled, fewer than
   * half of the feasible nodes wanted are left in it, and the next search takes a fresh sample,
   * starting where the first one stopped.
   */
  @Test
  void aSampleThinnedBelowHalfOfWhatASearchWantsIsTakenAfresh() {
    Session session = session(7, "4");
    Statement statement = session.newStatement();
    List<String> chosen = new ArrayList<>();

    for (int actor = 1; actor <= 7; actor++) {
      NodeSearch.Result result = session.nodeSearch().findBest(task(session, actor), 50, 5);
      chosen.add(result.node().name());
      statement.allocate(task(session, actor), result.node());
    }

    assertThat(chosen)
        .containsExactly(
            "node-00", "node-01", "node-02", "node-03", "node-04", "node-05", "node-10");
  }
}
