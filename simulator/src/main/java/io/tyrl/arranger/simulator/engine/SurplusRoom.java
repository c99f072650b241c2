package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.simulator.trace.Gpus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Room per node as a cycle began — whole GPUs, cpu and memory — for asking whether evicting surplus
 * workers alone could have made room for a pod: each node's free room plus what the takeable
 * surplus workers on it hold.
 */
final class SurplusRoom {

  /** Whole GPUs, milli-cpu, memory bytes; may go below zero while pods are still releasing. */
  private final Map<String, long[]> room = new HashMap<>();

  SurplusRoom(List<NodeInfo> nodes) {
    for (NodeInfo node : nodes) {
      room.put(node.name(), amounts(node.allocatable()));
    }
  }

  /** A pod on the node holds this (placed, or still releasing after an eviction). */
  void held(String node, Resource request) {
    add(node, amounts(request), -1);
  }

  /**
   * One job's workers above its minimum could go: {@code surplusWorkers} of its workers, each
   * asking {@code workerRequest}, spread as {@code workersOn} says. Which of them are the surplus
   * is the evictor's choice, so each node is credited with as many as it has, up to the surplus
   * count — the most any single node could gain.
   */
  void surplus(Map<String, Integer> workersOn, int surplusWorkers, Resource workerRequest) {
    if (surplusWorkers <= 0) {
      return;
    }
    long[] worker = amounts(workerRequest);
    workersOn.forEach((node, count) -> add(node, worker, Math.min(count, surplusWorkers)));
  }

  /** Whether some node's free room and surplus together hold the pod's GPUs, cpu and memory. */
  boolean couldHold(Resource pod) {
    long[] needed = amounts(pod);
    for (long[] available : room.values()) {
      if (available[0] >= needed[0] && available[1] >= needed[1] && available[2] >= needed[2]) {
        return true;
      }
    }
    return false;
  }

  private void add(String node, long[] amounts, long times) {
    long[] available = room.get(node);
    if (available == null) {
      return;
    }
    for (int i = 0; i < available.length; i++) {
      available[i] += amounts[i] * times;
    }
  }

  private static long[] amounts(Resource resource) {
    return new long[] {Gpus.whole(resource), resource.milliCpu(), resource.memory()};
  }
}
