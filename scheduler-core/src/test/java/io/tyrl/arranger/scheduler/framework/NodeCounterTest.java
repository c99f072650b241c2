package io.tyrl.arranger.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The per-node counter answers as a plain map would, through growth, collisions and counts back to
 * zero.
 */
class NodeCounterTest {

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void countsAsAMapWouldThroughGrowthAndRemovals(long seed) {
    Random random = new Random(seed);
    NodeCounter counter = new NodeCounter();
    Map<Integer, Integer> expected = new HashMap<>();
    int nodes = 1 + random.nextInt(300);

    for (int step = 0; step < 2000; step++) {
      int node = random.nextInt(nodes);
      int current = expected.getOrDefault(node, 0);
      int delta = current > 0 && random.nextBoolean() ? -1 : 1 + random.nextInt(3);
      counter.add(node, delta);
      expected.merge(node, delta, Integer::sum);

      int probe = random.nextInt(nodes + 10);
      assertThat(counter.get(probe))
          .as("seed %d step %d node %d", seed, step, probe)
          .isEqualTo(expected.getOrDefault(probe, 0));
    }
    int[] positive =
        expected.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .mapToInt(Map.Entry::getKey)
            .sorted()
            .toArray();
    assertThat(counter.positive()).isEqualTo(positive);
    for (int node = 0; node < nodes; node++) {
      assertThat(counter.get(node)).isEqualTo(expected.getOrDefault(node, 0));
    }
  }
}
