package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A cluster of identical nodes, each with {@code perNode} allocatable. */
public record ClusterShape(int nodes, Resource perNode) {

  /** A GPU node of an RL cluster: 8 GPUs, 128 cpu, 1 TiB of memory, room for 110 pods. */
  public static final Resource GPU_NODE =
      Resource.of("cpu", "128", "memory", "1Ti", "nvidia.com/gpu", "8", "pods", "110");

  public ClusterShape {
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be >= 1, was " + nodes);
    }
    Objects.requireNonNull(perNode, "perNode");
  }

  public static ClusterShape gpuNodes(int nodes) {
    return new ClusterShape(nodes, GPU_NODE);
  }

  public Resource capacity() {
    return perNode.times(nodes);
  }

  /** The nodes as the scheduler sees them: ready, schedulable, nothing else running on them. */
  public List<NodeInfo> nodeInfos() {
    List<NodeInfo> infos = new ArrayList<>(nodes);
    int digits = Integer.toString(nodes - 1).length();
    for (int i = 0; i < nodes; i++) {
      String name = "node-" + String.format("%0" + digits + "d", i);
      infos.add(
          new NodeInfo(
              name,
              Map.of("kubernetes.io/hostname", name),
              List.of(),
              perNode,
              Resource.EMPTY,
              Resource.EMPTY,
              true,
              false,
              0));
    }
    return infos;
  }
}
