package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sampled search keeps the nodes it weighed for the next pod of the same shape of the same job
 * ({@link KeptSample}): that pod is weighed against the same nodes, those that changed scored and
 * checked again, instead of a fresh sample further on. Twenty nodes of 4 cpu, searched at 50 % (ten
 * feasible nodes wanted, at least five): a fresh search after one that stopped at node-09 starts at
 * node-10.
 */
class KeptSampleSearchTest {

  private static List<NodeInfo> twentyNodes(int usedOnNode03, int usedOnNode05) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      int used = i == 3 ? usedOnNode03 : i == 5 ? usedOnNode05 : 0;
      nodes.add(
          node(String.format("node-%02d", i))
              .cpu("4")
              .memory("8Gi")
              .used("cpu", Integer.toString(used))
              .build());
    }
    return nodes;
  }

  /** A session of the default configuration over these nodes and jobs. */
  private static Session session(List<NodeInfo> nodes, JobInfo... jobs) {
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(nodes, List.of(jobs), List.of()), Fixtures.defaultConfiguration(), T0);
  }

  /** A job of a leader and {@code actors} actors of one shape asking {@code actorCpu} each. */
  private static Session session(int actors, String actorCpu) {
    return session(
        twentyNodes(0, 0),
        job("j")
            .minWorkers(0)
            .leader("cpu", "1")
            .workers("actor", actors, "cpu", actorCpu)
            .build());
  }

  /** Counts the scores it gives: node-15 scores 100, every other node 0. */
  private static final class CountingScore {
    final AtomicLong scored = new AtomicLong();
    final AtomicLong context = new AtomicLong();

    double score(TaskState task, NodeState node) {
      scored.incrementAndGet();
      return node.name().equals("node-15") ? 100 : 0;
    }
  }

  /**
   * Predicates and one counting score, which says it reads {@code context} beyond the node when
   * {@code saysWhatItReads}; a job of a leader and three actors of 1 cpu, and another job's leader.
   */
  private static Session withCountingScore(CountingScore counting, boolean saysWhatItReads) {
    var registry = BuiltInPlugins.registry();
    registry.register(
        new PluginDescriptor(
            "counting",
            ArgumentSchema.NONE,
            arguments ->
                (session, hooks) -> {
                  if (saysWhatItReads) {
                    hooks.nodeScore(counting::score, 1, task -> counting.context.get());
                  } else {
                    hooks.nodeScore(counting::score, 1);
                  }
                }));
    Scheduler scheduler = new Scheduler(registry, BuiltInActions.registry(), CycleListener.NONE);
    return scheduler.openSession(
        new Snapshot(
            twentyNodes(0, 0),
            List.of(
                job("j").minWorkers(0).leader("cpu", "1").workers("actor", 3, "cpu", "1").build(),
                job("other").minWorkers(0).leader("cpu", "1").build()),
            List.of()),
        new SchedulerConfigurationParser(scheduler.vocabulary())
            .parse(
                """
                actions: allocate
                tiers:
                  - plugins: [{name: predicates}, {name: counting}]
                """),
        T0);
  }

  @Test
  void anUnchangedNodeIsNotScoredAgainAndAChangedOneIs() {
    CountingScore counting = new CountingScore();
    Session session = withCountingScore(counting, true);
    // node-01 changed before the sample is taken, and not after: its kept score stands.
    session
        .newStatement()
        .allocate(
            session.job("default/other").orElseThrow().leader(),
            session.node("node-01").orElseThrow());

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    assertThat(counting.scored.get()).as("scores of the first search").isEqualTo(10);
    assertThat(best(session, task(session, 2))).isEqualTo("node-00");
    assertThat(counting.scored.get()).as("nothing changed: no score again").isEqualTo(10);

    session.newStatement().allocate(task(session, 2), session.node("node-04").orElseThrow());
    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    assertThat(counting.scored.get()).as("node-04 changed: scored again").isEqualTo(11);
  }

  @Test
  void aScoreThatDoesNotSayWhatItReadsIsNeverKept() {
    CountingScore counting = new CountingScore();
    Session session = withCountingScore(counting, false);

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    // A fresh sample, node-10 to node-19, in which node-15 scores best.
    assertThat(best(session, task(session, 2))).isEqualTo("node-15");
    assertThat(counting.scored.get()).as("both searches scored ten nodes").isEqualTo(20);
  }

  /**
   * What a score reads beyond the node changed between two actors: the second is weighed against a
   * fresh sample, where node-15 scores best.
   */
  @Test
  void aChangeOfWhatAScoreReadsBeyondTheNodeTakesAFreshSample() {
    CountingScore counting = new CountingScore();
    Session session = withCountingScore(counting, true);

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    counting.context.set(7);
    assertThat(best(session, task(session, 2))).isEqualTo("node-15");
  }

  /**
   * A pod of the job placed outside the sample (by another path) puts its node among those weighed
   * again: node-15, the best-scoring node, which the sample of node-00 to node-09 did not hold.
   */
  @Test
  void theJobsNodeOutsideTheSampleIsWeighedToo() {
    CountingScore counting = new CountingScore();
    Session session = withCountingScore(counting, true);

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    session.newStatement().allocate(task(session, 0), session.node("node-15").orElseThrow());

    assertThat(best(session, task(session, 2))).isEqualTo("node-15");
  }

  /**
   * The kept scores decide among the nodes that did not change: node-03 (2 of 4 cpu used) is the
   * fullest after an actor of 2 cpu, node-05 (1 used) the next. The first actor fills node-03; the
   * second, weighed against the same nodes, goes to node-05 on its kept score.
   */
  @Test
  void theKeptScoresOfUnchangedNodesDecide() {
    Session session =
        session(
            twentyNodes(2, 1),
            job("j").minWorkers(0).leader("cpu", "1").workers("actor", 2, "cpu", "2").build());
    Statement statement = session.newStatement();

    NodeSearch.Result first = session.nodeSearch().findBest(task(session, 1), 50, 5);
    statement.allocate(task(session, 1), first.node());

    assertThat(first.node().name()).isEqualTo("node-03");
    assertThat(best(session, task(session, 2))).isEqualTo("node-05");
  }

  /**
   * Two worker sets of the same request: the second set's pod is weighed against a fresh sample.
   */
  @Test
  void aPodOfAnotherWorkerSetTakesAFreshSample() {
    Session session =
        session(
            twentyNodes(0, 0),
            job("j")
                .minWorkers(0)
                .leader("cpu", "1")
                .workers("actor", 1, "cpu", "1")
                .workers("critic", 1, "cpu", "1")
                .build());

    assertThat(best(session, task(session, 1))).isEqualTo("node-00");
    assertThat(best(session, task(session, 2))).isEqualTo("node-10");
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

  /**
   * Each job keeps its own sample: the elastic actors of many jobs are placed a round apart, one
   * pod of each job in turn. Job b's search between two of a's takes a fresh sample (node-10 on),
   * and a's next actor is weighed against a's.
   */
  @Test
  void eachJobKeepsItsOwnSampleAcrossAnotherJobsSearch() {
    Session session =
        session(
            twentyNodes(0, 0),
            job("a").minWorkers(0).leader("cpu", "1").workers("actor", 2, "cpu", "1").build(),
            job("b").minWorkers(0).leader("cpu", "1").workers("actor", 1, "cpu", "1").build());
    TaskState a0 = session.job("default/a").orElseThrow().tasks().get(1);
    TaskState a1 = session.job("default/a").orElseThrow().tasks().get(2);
    TaskState b0 = session.job("default/b").orElseThrow().tasks().get(1);

    assertThat(best(session, a0)).isEqualTo("node-00");
    assertThat(best(session, b0)).isEqualTo("node-10");
    assertThat(best(session, a1)).isEqualTo("node-00");
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
   * A rollback frees nodes the sample dropped as full: node-00, filled by the first actor and
   * dropped when the second was weighed, is free again once the placement is rolled back, so the
   * next search takes a fresh sample rather than the one without node-00.
   */
  @Test
  void aRollbackEndsTheKeptSamples() {
    Session session = session(2, "4");
    Statement statement = session.newStatement();
    Statement.Savepoint before = statement.savepoint();
    statement.allocate(
        task(session, 1), session.nodeSearch().findBest(task(session, 1), 50, 5).node());
    assertThat(best(session, task(session, 2)))
        .as("node-00 full, the kept sample")
        .isEqualTo("node-01");

    statement.rollbackTo(before);

    assertThat(best(session, task(session, 2))).as("a fresh sample").isEqualTo("node-10");
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

  /**
   * Over random placements of another job's pods (on the sample's nodes too) and random holds, each
   * answer a reused sample gives is the one weighing every node it kept again would give: the best
   * score now among the job's own nodes and the kept nodes still feasible and not held for another
   * job, the first of equals winning.
   */
  static Stream<Arguments> seedsAndRounds() {
    List<Arguments> cases = new ArrayList<>();
    for (long seed = 1; seed <= 6; seed++) {
      // A few of the other job's pods between two searches, as between a gang's minimum actors;
      // and up to 300, so that the change log outgrows the sample, as a round of every other
      // job's elastic actors does.
      cases.add(Arguments.of(seed, 3));
      cases.add(Arguments.of(seed, 300));
    }
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("seedsAndRounds")
  void aReusedSampleAnswersAsIfEachOfItsNodesWereWeighedAgain(long seed, int otherPodsPerRound) {
    Random random = new Random(seed);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      nodes.add(
          node(String.format("node-%02d", i))
              .cpu("8")
              .memory("32Gi")
              .used("cpu", Integer.toString(random.nextInt(7)))
              .build());
    }
    Session session =
        session(
            nodes,
            job("j").minWorkers(0).leader("cpu", "1").workers("actor", 40, "cpu", "1").build(),
            job("other")
                .minWorkers(0)
                .leader("cpu", "1")
                .workers("actor", 4000, "cpu", "10m")
                .build());
    JobState j = session.job("default/j").orElseThrow();
    JobState other = session.job("default/other").orElseThrow();
    NodeSearch search = session.nodeSearch();
    Statement statement = session.newStatement();
    int otherPlaced = 0;
    int reusesChecked = 0;
    for (int actor = 1; actor <= 40; actor++) {
      TaskState task = j.tasks().get(actor);
      int[] kept = search.keptNodes(j);
      long samplesBefore = search.samplesTaken();
      NodeSearch.Result result = search.findBest(task, 50, 5);
      if (!result.found()) {
        break;
      }
      if (search.samplesTaken() == samplesBefore && kept.length > 0) {
        assertThat(result.node().name())
            .as("seed %d, actor %d", seed, actor)
            .isEqualTo(weighedAgain(session, task, kept, j));
        reusesChecked++;
      }
      statement.allocate(task, result.node());
      for (int n = random.nextInt(otherPodsPerRound + 1); n > 0 && otherPlaced < 4000; n--) {
        NodeState target = session.nodes().get(random.nextInt(40));
        TaskState pod = other.tasks().get(1 + otherPlaced);
        if (target.firstInsufficientDimension(pod) < 0) {
          statement.allocate(pod, target);
          otherPlaced++;
        }
      }
      if (random.nextInt(6) == 0) {
        search.hold(new int[] {random.nextInt(40)}, other, "held for other");
      }
    }
    assertThat(reusesChecked).as("searches answered from the kept sample").isGreaterThan(10);
  }

  /** The oracle: every kept node and every node of the job weighed now, nothing remembered. */
  private static String weighedAgain(Session session, TaskState task, int[] kept, JobState job) {
    Set<Integer> keptSet = new HashSet<>();
    for (int index : kept) {
      keptSet.add(index);
    }
    List<Integer> order = new ArrayList<>();
    for (int index : job.nodeIndicesInUse()) {
      if (!keptSet.contains(index)) {
        order.add(index);
      }
    }
    for (int index : kept) {
      order.add(index);
    }
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int index : order) {
      NodeState node = session.nodes().get(index);
      if (session.nodeSearch().heldForOther(index, job)
          || !session.tiers().check(task, node).fits()) {
        continue;
      }
      double score = session.tiers().score(task, node);
      if (best == null || score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best == null ? "none" : best.name();
  }
}
