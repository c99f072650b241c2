package io.tyrl.arranger.simulator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fair shares of small trees, each worked out by hand in the comments. */
class TreeFairShareTest {

  @Test
  void guaranteesComeFirstThenTheRestByWeight() {
    // a is guaranteed 60 of 100, b nothing; both ask for everything. a: 60, then 40 split 1:3.
    QueueTree tree = tree(queue("a", null, 1, 0, 60, -1), queue("b", null, 3, 0, 0, -1));

    assertThat(shares(tree, 100, 100, 100)).containsExactly(entry("a", 70), entry("b", 30));
  }

  @Test
  void aGuaranteeAboveTheDemandGivesOnlyTheDemand() {
    QueueTree tree = tree(queue("a", null, 1, 0, 60, -1), queue("b", null, 3, 0, 0, -1));

    assertThat(shares(tree, 100, 20, 100)).containsExactly(entry("a", 20), entry("b", 80));
  }

  @Test
  void higherPriorityIsServedFirstThenWeightInWholeUnits() {
    // a (priority 1) takes its 30; the 70 left split 1:3 is 17.5 / 52.5: floors 17 and 52, and the
    // one unit left goes to the equal fractions' first sibling, b.
    QueueTree tree =
        tree(
            queue("a", null, 1, 1, 0, -1),
            queue("b", null, 1, 0, 0, -1),
            queue("c", null, 3, 0, 0, -1));

    assertThat(shares(tree, 100, 30, 100, 100))
        .containsExactly(entry("a", 30), entry("b", 18), entry("c", 52));
  }

  @Test
  void aHigherPriorityThatAsksForMoreLeavesNothingToTheLowerOne() {
    QueueTree tree = tree(queue("a", null, 1, 1, 0, -1), queue("b", null, 9, 0, 0, -1));

    assertThat(shares(tree, 100, 150, 100)).containsExactly(entry("a", 100), entry("b", 0));
  }

  @Test
  void wholeUnitsGoToTheLargestFractionsAndSumToWhatIsShared() {
    // 10 split 1:1:1 is 3.33 each: floors 3, 3, 3; the one unit left to the first of equal
    // fractions. Split 2:1:1 is 5, 2.5, 2.5: floors 5, 2, 2, one unit to b.
    QueueTree even =
        tree(
            queue("a", null, 1, 0, 0, -1),
            queue("b", null, 1, 0, 0, -1),
            queue("c", null, 1, 0, 0, -1));
    QueueTree weighted =
        tree(
            queue("a", null, 2, 0, 0, -1),
            queue("b", null, 1, 0, 0, -1),
            queue("c", null, 1, 0, 0, -1));

    assertThat(shares(even, 10, 10, 10, 10))
        .containsExactly(entry("a", 4), entry("b", 3), entry("c", 3));
    assertThat(shares(weighted, 10, 10, 10, 10))
        .containsExactly(entry("a", 5), entry("b", 3), entry("c", 2));
  }

  @Test
  void whatASiblingCannotUseGoesToTheOthers() {
    // 90 split 1:1:1 would be 30 each, but a asks for 10: b and c split the other 80.
    QueueTree tree =
        tree(
            queue("a", null, 1, 0, 0, -1),
            queue("b", null, 1, 0, 0, -1),
            queue("c", null, 1, 0, 0, -1));

    assertThat(shares(tree, 90, 10, 100, 100))
        .containsExactly(entry("a", 10), entry("b", 40), entry("c", 40));
  }

  @Test
  void capabilitiesCapEveryLevel() {
    // d1 may hold 30; its child x at most 10. d1 asks for min(10 + 50, 30) = 30, d2 for 100:
    // 100 split 1:1 caps d1 at 30, d2 gets 70. Inside d1: x 10 (its cap), y the other 20.
    QueueTree tree =
        tree(
            queue("d1", null, 1, 0, 0, 30),
            queue("x", "d1", 1, 0, 0, 10),
            queue("y", "d1", 1, 0, 0, -1),
            queue("d2", null, 1, 0, 0, -1),
            queue("z", "d2", 1, 0, 0, -1));

    assertThat(shares(tree, 100, 50, 50, 100))
        .containsExactly(
            entry("d1", 30), entry("x", 10), entry("y", 20), entry("d2", 70), entry("z", 70));
  }

  @Test
  void aTwoLevelTreeWithGuaranteesPrioritiesAndLimits() {
    // Cluster 100. Demands r1 50, r2 5, r3 40, p1 10, p2 60, b1 10, b2 40.
    // Level 1: r asks 95, p 70, b min(10 + min(40, 20), 35) = 30. Guarantees min(40, 95) = 40 and
    //   min(30, 70) = 30; the 30 left split 3:2:1 is 15, 10, 5 (no one capped): r 55, p 40, b 5.
    // r's 55: r1 gets 25, r2 its 5 (below its guarantee), r3 0; the 25 left go to r1 and r3 (r2
    //   asks no more) 2:1 = 16.67 / 8.33: floors 16 and 8, one unit to r1's larger fraction: r1 42,
    //   r3 8.
    // p's 40: p1 its 10 (below its guarantee), p2 the other 30.
    // b's 5: b1's priority 1 takes them all, b2 none.
    QueueTree tree =
        tree(
            queue("r", null, 3, 0, 40, -1),
            queue("r1", "r", 2, 0, 25, -1),
            queue("r2", "r", 1, 0, 10, -1),
            queue("r3", "r", 1, 0, 0, -1),
            queue("p", null, 2, 0, 30, -1),
            queue("p1", "p", 1, 0, 20, -1),
            queue("p2", "p", 1, 0, 0, -1),
            queue("b", null, 1, 0, 0, 35),
            queue("b1", "b", 1, 1, 0, -1),
            queue("b2", "b", 2, 0, 0, 20));

    assertThat(shares(tree, 100, 50, 5, 40, 10, 60, 10, 40))
        .containsExactly(
            entry("r", 55),
            entry("r1", 42),
            entry("r2", 5),
            entry("r3", 8),
            entry("p", 40),
            entry("p1", 10),
            entry("p2", 30),
            entry("b", 5),
            entry("b1", 5),
            entry("b2", 0));
  }

  @Test
  void guaranteesAboveWhatTheParentHasAreSplitByWeightUpToEachGuarantee() {
    // a and b are each guaranteed 60 of their parent's 100: the 100 split 1:1, capped at 60.
    QueueTree tree =
        tree(
            queue("top", null, 1, 0, 0, 100),
            queue("a", "top", 1, 0, 60, -1),
            queue("b", "top", 1, 0, 60, -1));

    assertThat(shares(tree, 1000, 100, 100))
        .containsExactly(entry("top", 100), entry("a", 50), entry("b", 50));
  }

  @Test
  void lessDemandThanTheClusterGivesEveryQueueItsDemand() {
    QueueTree tree =
        tree(
            queue("d", null, 1, 0, 10, -1),
            queue("x", "d", 1, 0, 10, -1),
            queue("y", "d", 5, 0, 0, -1),
            queue("z", null, 1, 0, 0, -1));

    assertThat(shares(tree, 100, 3, 20, 7))
        .containsExactly(entry("d", 23), entry("x", 3), entry("y", 20), entry("z", 7));
  }

  @Test
  void aFlatTreeOfWeightsAgreesWithWeightedWaterFilling() {
    QueueTree tree =
        tree(
            queue("a", null, 4, 0, 0, -1),
            queue("b", null, 2, 0, 0, -1),
            queue("c", null, 1, 0, 0, -1));
    double[] continuous =
        WaterFilling.deserved(700, new int[] {4, 2, 1}, new double[] {100, 500, 500});

    // 700: a asks 100 of its 400; b and c split 600 2:1 = 400 / 200.
    assertThat(shares(tree, 700, 100, 500, 500))
        .containsExactly(entry("a", 100), entry("b", 400), entry("c", 200));
    assertThat(continuous).containsExactly(100, 400, 200);
  }

  @Test
  void subtreeSumsAddTheLeavesUpToEveryAncestor() {
    QueueTree tree =
        tree(
            queue("d", null, 1, 0, 0, -1),
            queue("e", "d", 1, 0, 0, -1),
            queue("x", "e", 1, 0, 0, -1),
            queue("y", "d", 1, 0, 0, -1),
            queue("z", null, 1, 0, 0, -1));

    assertThat(new TreeFairShare(tree).subtreeSums(new long[] {3, 4, 5}))
        .containsExactly(7, 3, 3, 4, 5);
  }

  private static Map<String, Long> shares(QueueTree tree, long capacity, long... leafDemand) {
    long[] shares = new TreeFairShare(tree).shares(capacity, leafDemand);
    Map<String, Long> byName = new LinkedHashMap<>();
    for (int i = 0; i < shares.length; i++) {
      byName.put(tree.queues().get(i).name(), shares[i]);
    }
    return byName;
  }

  private static Map.Entry<String, Long> entry(String name, long share) {
    return Map.entry(name, share);
  }

  private static QueueTree tree(QueueSpec... queues) {
    return new QueueTree(List.of(queues));
  }

  /** A queue guaranteed {@code guarantee} GPUs, at most {@code capability} (-1: no limit). */
  static QueueSpec queue(
      String name, String parent, int weight, int priority, long guarantee, long capability) {
    return new QueueSpec(
        name,
        parent,
        weight,
        priority,
        guarantee == 0 ? null : Resource.of(Resource.GPU, Long.toString(guarantee)),
        capability < 0 ? null : Resource.of(Resource.GPU, Long.toString(capability)));
  }
}
