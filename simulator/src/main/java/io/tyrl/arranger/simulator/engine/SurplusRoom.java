package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.simulator.trace.Gpus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GPUs per node as a cycle began, for asking whether evicting surplus workers alone could have made
 * room for a pod: each node's free GPUs plus those of the takeable surplus workers on it.
 */
final class SurplusRoom {

  private final Map<String, Long> room = new HashMap<>();

  SurplusRoom(List<NodeInfo> nodes) {
    for (NodeInfo node : nodes) {
      room.put(node.name(), Gpus.whole(node.allocatable()));
    }
  }

  /** A pod on the node holds these GPUs (placed, or still releasing after an eviction). */
  void held(String node, long gpus) {
    room.merge(node, -gpus, Long::sum);
  }

  /**
   * One job's workers above its minimum could go: {@code surplusWorkers} of its workers, each of
   * {@code workerGpus}, spread as {@code workersOn} says. Which of them are the surplus is the
   * evictor's choice, so each node is credited with as many as it has, up to the surplus count —
   * the most any single node could gain.
   */
  void surplus(Map<String, Integer> workersOn, int surplusWorkers, long workerGpus) {
    if (surplusWorkers <= 0) {
      return;
    }
    workersOn.forEach(
        (node, count) -> room.merge(node, Math.min(count, surplusWorkers) * workerGpus, Long::sum));
  }

  /** Whether some node's free GPUs and surplus together come to {@code gpus}. */
  boolean couldHold(long gpus) {
    return room.values().stream().anyMatch(available -> available >= gpus);
  }
}
