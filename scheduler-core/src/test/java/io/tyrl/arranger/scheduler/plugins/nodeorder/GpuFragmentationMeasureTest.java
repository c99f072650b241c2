package io.tyrl.arranger.scheduler.plugins.nodeorder;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The measure itself, worked by hand. The mix is four pods, each asking one cpu: a cpu-only
 * learner, two 250m actors and a 1-GPU worker. On a 2-GPU node, a pod shape's fragmented GPU is all
 * the free GPU when the shape cannot go there (cpu short, or no device with room); else the free
 * share of the devices it cannot use (below 250m for an actor, the partly used ones for a whole-GPU
 * pod); a cpu-only pod that fits leaves every free GPU idle. The node's measure is the average over
 * the four pods.
 */
class GpuFragmentationMeasureTest {

  private static final String GPU = Resource.GPU;

  private static JobInfo mix() {
    return job("mix")
        .minWorkers(1)
        .leader("cpu", "1")
        .workers("share", 2, "cpu", "1", GPU, "250m")
        .workers("whole", 1, "cpu", "1", GPU, "1")
        .build();
  }

  private static Session session(List<NodeInfo> nodes, JobInfo... jobs) {
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(nodes, List.of(jobs), List.of()), Fixtures.defaultConfiguration(), T0);
  }

  private static GpuFragmentation measureOf(Session session) {
    return GpuFragmentation.of(session, session.dimensions().indexOf(GPU));
  }

  private static NodeInfo twoGpus(String name) {
    return node(name).cpu("32").memory("128Gi").gpu(2).build();
  }

  static Stream<Arguments> nodeStates() {
    return Stream.of(
        // cpu-only 2000, actors 0, whole 0
        Arguments.of("both devices whole", new long[] {1000, 1000}, 32_000, 500.0),
        // cpu-only 1750, actors 0, whole: one device whole, 750 partly used
        Arguments.of("a quarter taken", new long[] {750, 1000}, 32_000, 625.0),
        // cpu-only 1200, actors 2 × 200, whole 200
        Arguments.of("200m left on one device", new long[] {200, 1000}, 32_000, 450.0),
        // the devices in any order: cpu-only 500, actors 2 × 200, whole (none whole) 500
        Arguments.of("300m and 200m left", new long[] {300, 200}, 32_000, 350.0),
        // no device holds an actor: cpu-only 300, actors 2 × 300, whole 300
        Arguments.of("100m and 200m left", new long[] {100, 200}, 32_000, 300.0),
        // exactly an actor's share: cpu-only 250, actors 0, whole 250
        Arguments.of("250m left", new long[] {250, 0}, 32_000, 125.0),
        Arguments.of("249m left", new long[] {249, 0}, 32_000, 249.0),
        Arguments.of("nothing free", new long[] {0, 0}, 32_000, 0.0),
        // every pod asks one cpu: all of them fit at exactly one, none below
        Arguments.of("exactly one cpu free", new long[] {1000, 1000}, 1000, 500.0),
        Arguments.of("just under one cpu free", new long[] {1000, 1000}, 999, 2000.0),
        Arguments.of("cpu over-committed", new long[] {1000, 1000}, -1000, 2000.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeStates")
  void theExpectedFragmentedGpuOfANodeState(
      String description, long[] free, long cpuFree, double expected) {
    Session session = session(List.of(twoGpus("n")), mix());
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);

    assertThat(fragmentation.expected(node, free, cpuFree)).isCloseTo(expected, within(1e-9));
    assertThat(fragmentation.expected(node, free, cpuFree))
        .as("asked again, from the memo")
        .isCloseTo(expected, within(1e-9));
  }

  /**
   * One measure asked about every state above in turn, then again in reverse: each state is told
   * apart from the others it is remembered beside.
   */
  @Test
  void statesRememberedSideBySideStayApart() {
    Session session = session(List.of(twoGpus("n")), mix());
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);
    List<Arguments> states = nodeStates().toList();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < states.size(); i++) {
        Object[] state = states.get(round == 0 ? i : states.size() - 1 - i).get();
        assertThat(fragmentation.expected(node, (long[]) state[1], (long) (int) state[2]))
            .as("%s, round %d", state[0], round)
            .isCloseTo((double) state[3], within(1e-9));
      }
    }
  }

  /**
   * Nodes of 12 and of 16 devices, with states that differ only in their last, largest devices: the
   * memo tells them apart (up to 12 devices) or does not keep them (above).
   */
  @ParameterizedTest(name = "{0} devices")
  @org.junit.jupiter.params.provider.ValueSource(ints = {12, 16})
  void manyDevicesDifferingOnlyInTheLargest(int count) {
    Session session =
        session(List.of(node("big").cpu("64").memory("512Gi").gpu(count).build()), mix());
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);
    for (int round = 0; round < 2; round++) {
      for (int whole = count; whole >= 0; whole--) {
        long[] free = new long[count];
        // 300m on every device but the last `whole`, which are wholly free.
        for (int d = 0; d < count; d++) {
          free[d] = d < count - whole ? 300 : 1000;
        }
        double allFree = 300.0 * (count - whole) + 1000.0 * whole;
        // learner: all; actors: none below 250m; whole-GPU pod: the partly used unless none whole
        double wholePod = whole > 0 ? 300.0 * (count - whole) : allFree;
        assertThat(fragmentation.expected(node, free, 64_000))
            .as("%d whole of %d, round %d", whole, count, round)
            .isCloseTo((allFree + wholePod) / 4, within(1e-9));
      }
    }
  }

  /** A device over-committed by pods the scheduler did not place counts as nothing free. */
  @Test
  void anOverCommittedDeviceCountsAsNothingFree() {
    Session session = session(List.of(twoGpus("n")), mix());
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);
    // As {0, 1000}: learner 1000, actors 0, whole (one device whole) 0.
    assertThat(fragmentation.expected(node, new long[] {-500, 1000}, 32_000))
        .isCloseTo(250.0, within(1e-9));
    // As {0, 999}: learner 999, actors 0, whole (none whole) 999.
    assertThat(fragmentation.expected(node, new long[] {-1, 999}, 32_000))
        .isCloseTo(1998.0 / 4, within(1e-9));
  }

  /**
   * Scores kept per shape tell shapes apart by cpu as well as by GPU, and more shapes than a node
   * keeps are scored right when they come back.
   */
  @Test
  void keptScoresAreTheirShapesOwn() {
    JobInfo hungry =
        job("hungry")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "32", GPU, "250m")
            .workers("light", 1, "cpu", "2", GPU, "250m")
            .workers("pair", 1, "cpu", "1", GPU, "2")
            .build();
    Session session = session(List.of(twoGpus("n")), mix(), hungry);
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);
    List<TaskState> shapes =
        List.of(
            task(session, "mix-share-0"),
            task(session, "hungry-actor-0"),
            task(session, "hungry-light-0"),
            task(session, "mix-whole-0"),
            task(session, "hungry-pair-0"),
            task(session, "mix-learner"));
    List<Double> first = new ArrayList<>();
    for (TaskState shape : shapes) {
      first.add(fragmentation.score(shape, node));
    }
    assertThat(first.get(1))
        .as("all 32 cpu taken: every GPU left idle, unlike a 1-cpu actor's")
        .isNotEqualTo(first.get(0));
    for (int i = 0; i < shapes.size(); i++) {
      GpuFragmentation fresh = measureOf(session);
      assertThat(fragmentation.score(shapes.get(i), node))
          .as(shapes.get(i).info().podName())
          .isEqualTo(first.get(i))
          .isEqualTo(fresh.score(shapes.get(i), node));
    }
  }

  /**
   * A node the constraints of some pods turn away counts those pods' free GPU as fragmented too: a
   * job of two pods (a learner and a 500m actor) that only nodes labelled zone=a admit.
   */
  @Test
  void podsANodeTurnsAwayLeaveAllItsFreeGpuFragmented() {
    JobInfo picky =
        job("picky")
            .minWorkers(1)
            .nodeSelector("zone", "a")
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", GPU, "500m")
            .build();
    Session session =
        session(
            List.of(
                node("a").cpu("32").memory("128Gi").gpu(2).label("zone", "a").build(),
                twoGpus("b")),
            mix(),
            picky);
    GpuFragmentation fragmentation = measureOf(session);
    long[] whole = {1000, 1000};

    // On a: the two learners leave 2000 each, the GPU pods none; six pods.
    assertThat(fragmentation.expected(session.nodes().get(0), whole, 32_000))
        .isCloseTo(4000.0 / 6, within(1e-9));
    // On b: the mix's learner 2000, and picky's two pods, turned away, 2000 each.
    assertThat(fragmentation.expected(session.nodes().get(1), whole, 32_000))
        .isCloseTo(6000.0 / 6, within(1e-9));
  }

  /**
   * The score is the growth a placement causes, in whole steps of 125m, at 100 points a step,
   * negated; asked again for the same node and shape, the same.
   */
  @Test
  void theScoreIsTheGrowthInStepsNegated() {
    Session session = session(List.of(twoGpus("n")), mix());
    GpuFragmentation fragmentation = measureOf(session);
    NodeState node = session.nodes().get(0);
    TaskState actor = task(session, "mix-share-0");
    TaskState whole = task(session, "mix-whole-0");
    TaskState learner = task(session, "mix-learner");

    // 500 → 625: one step.
    assertThat(fragmentation.score(actor, node)).isEqualTo(-100);
    assertThat(fragmentation.score(actor, node)).isEqualTo(-100);
    // 500 → cpu-only 1000 + actors 0 + whole 0 = 250: growth −250, two steps back.
    assertThat(fragmentation.score(whole, node)).isEqualTo(200);
    // A learner takes only cpu: no growth.
    assertThat(fragmentation.score(learner, node)).isZero();
    assertThat(fragmentation.score(actor, node)).as("kept for its shape").isEqualTo(-100);
  }

  @Test
  void nothingIsMeasuredWithoutASharedGpuAsked() {
    Session wholeOnly =
        session(
            List.of(twoGpus("n")),
            job("w")
                .minWorkers(1)
                .leader("cpu", "1")
                .workers("a", 1, "cpu", "1", GPU, "1")
                .build());
    assertThat(GpuFragmentation.of(wholeOnly, wholeOnly.dimensions().indexOf(GPU))).isNull();
    Session noGpuNode = session(List.of(node("c").cpu("32").memory("128Gi").build()), mix());
    assertThat(GpuFragmentation.of(noGpuNode, noGpuNode.dimensions().indexOf(GPU))).isNull();
  }

  private static TaskState task(Session session, String podName) {
    List<TaskState> found = new ArrayList<>();
    session
        .jobs()
        .forEach(
            job ->
                job.tasks().stream()
                    .filter(task -> task.info().podName().equals(podName))
                    .forEach(found::add));
    assertThat(found).as(podName).hasSize(1);
    return found.get(0);
  }
}
