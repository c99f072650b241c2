package io.tyrl.arranger.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SurplusRoomTest {

  /** Two nodes of 8 GPUs, 128 cpu and 1Ti: node-0 and node-1. */
  private static SurplusRoom twoNodes() {
    return new SurplusRoom(ClusterShape.gpuNodes(2).nodeInfos());
  }

  private static Resource gpus(long gpus) {
    return Resource.of("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", Long.toString(gpus));
  }

  private static Resource cpus(long cpus) {
    return Resource.of("cpu", Long.toString(cpus), "memory", "1Gi");
  }

  @Test
  void anIdleNodeHoldsUpToItsGpus() {
    SurplusRoom room = twoNodes();

    assertThat(room.couldHold(gpus(8))).isTrue();
    assertThat(room.couldHold(gpus(9))).isFalse();
  }

  @Test
  void whatPodsHoldIsNotRoomUnlessSurplusOfTheirsCouldGo() {
    SurplusRoom room = twoNodes();
    room.held("node-0", gpus(6));
    room.held("node-1", gpus(3));
    room.held("node-1", gpus(2));

    assertThat(room.couldHold(gpus(3))).isTrue();
    assertThat(room.couldHold(gpus(4))).isFalse();
  }

  @Test
  void eachNodeGainsItsOwnSurplusWorkersUpToTheJobsSurplusCount() {
    SurplusRoom room = twoNodes();
    // A job of 5 workers of 2 GPUs, minimum 3: 3 on node-0, 2 on node-1; 2 of them may go.
    room.held("node-0", gpus(6));
    room.held("node-1", gpus(4));
    room.held("node-1", gpus(4));
    room.surplus(Map.of("node-0", 3, "node-1", 2), 2, gpus(2));

    // node-0: 2 free + 2 surplus workers (not all 3 of its workers) = 6; node-1: 0 + 4 = 4.
    assertThat(room.couldHold(gpus(6))).isTrue();
    assertThat(room.couldHold(gpus(7))).isFalse();
  }

  @Test
  void surplusOnDifferentNodesDoesNotAddUp() {
    SurplusRoom room = twoNodes();
    room.held("node-0", gpus(8));
    room.held("node-1", gpus(8));
    room.surplus(Map.of("node-0", 2), 2, gpus(2));
    room.surplus(Map.of("node-1", 2), 2, gpus(2));

    assertThat(room.couldHold(gpus(4))).isTrue();
    assertThat(room.couldHold(gpus(5))).isFalse();
  }

  @Test
  void aJobAtItsMinimumGivesNothing() {
    SurplusRoom room = twoNodes();
    room.held("node-0", gpus(8));
    room.held("node-1", gpus(8));
    room.surplus(Map.of("node-0", 4), 0, gpus(2));
    room.surplus(Map.of("node-1", 4), -1, gpus(2));

    assertThat(room.couldHold(gpus(1))).isFalse();
  }

  @Test
  void freeGpusOnANodeWhoseCpuIsTakenHoldNothingUntilCpuSurplusCouldGo() {
    SurplusRoom room = twoNodes();
    // Both nodes: 8 GPUs free, but cpu-only actors hold 120 of node-0's 128 cpu and all of
    // node-1's; 4 of node-0's actors (16 cpu each) are surplus.
    room.held("node-0", cpus(120));
    room.held("node-1", cpus(128));
    Resource learner = Resource.of("cpu", "64", "memory", "8Gi", "nvidia.com/gpu", "8");

    assertThat(room.couldHold(learner)).isFalse();

    room.surplus(Map.of("node-0", 7), 4, cpus(16));

    assertThat(room.couldHold(learner)).isTrue();
  }
}
