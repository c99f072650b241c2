package io.tyrl.arranger.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.simulator.trace.ClusterShape;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SurplusRoomTest {

  /** Two nodes of 8 GPUs: node-0 and node-1. */
  private static SurplusRoom twoNodes() {
    return new SurplusRoom(ClusterShape.gpuNodes(2).nodeInfos());
  }

  @Test
  void anIdleNodeHoldsUpToItsGpus() {
    SurplusRoom room = twoNodes();

    assertThat(room.couldHold(8)).isTrue();
    assertThat(room.couldHold(9)).isFalse();
  }

  @Test
  void whatPodsHoldIsNotRoomUnlessSurplusOfTheirsCouldGo() {
    SurplusRoom room = twoNodes();
    room.held("node-0", 6);
    room.held("node-1", 3);
    room.held("node-1", 2);

    assertThat(room.couldHold(3)).isTrue();
    assertThat(room.couldHold(4)).isFalse();
  }

  @Test
  void eachNodeGainsItsOwnSurplusWorkersUpToTheJobsSurplusCount() {
    SurplusRoom room = twoNodes();
    // A job of 5 workers of 2 GPUs, minimum 3: 3 on node-0, 2 on node-1; 2 of them may go.
    room.held("node-0", 6);
    room.held("node-1", 4);
    room.held("node-1", 4);
    room.surplus(Map.of("node-0", 3, "node-1", 2), 2, 2);

    // node-0: 2 free + 2 surplus workers (not all 3 of its workers) = 6; node-1: 0 + 4 = 4.
    assertThat(room.couldHold(6)).isTrue();
    assertThat(room.couldHold(7)).isFalse();
  }

  @Test
  void surplusOnDifferentNodesDoesNotAddUp() {
    SurplusRoom room = twoNodes();
    room.held("node-0", 8);
    room.held("node-1", 8);
    room.surplus(Map.of("node-0", 2), 2, 2);
    room.surplus(Map.of("node-1", 2), 2, 2);

    assertThat(room.couldHold(4)).isTrue();
    assertThat(room.couldHold(5)).isFalse();
  }

  @Test
  void aJobAtItsMinimumGivesNothing() {
    SurplusRoom room = twoNodes();
    room.held("node-0", 8);
    room.held("node-1", 8);
    room.surplus(Map.of("node-0", 4), 0, 2);
    room.surplus(Map.of("node-1", 4), -1, 2);

    assertThat(room.couldHold(1)).isFalse();
  }
}
