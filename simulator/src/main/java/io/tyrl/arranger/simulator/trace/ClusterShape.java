package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A cluster of identical nodes, each with {@code perNode} allocatable; with {@code topology}, each
 * node also carries a zone, a block and a rack label ({@link #LEVELS}): racks of {@value
 * #RACK_NODES} nodes, blocks of {@value #BLOCK_RACKS} racks, zones of {@value #ZONE_BLOCKS} blocks.
 */
public record ClusterShape(int nodes, Resource perNode, boolean topology) {

  public static final String ZONE = "topology.kubernetes.io/zone";
  public static final String BLOCK = "arranger.tyrl.io/block";
  public static final String RACK = "arranger.tyrl.io/rack";
  public static final List<String> LEVELS = List.of(ZONE, BLOCK, RACK);
  public static final int RACK_NODES = 16;
  public static final int BLOCK_RACKS = 4;
  public static final int ZONE_BLOCKS = 4;

  public ClusterShape(int nodes, Resource perNode) {
    this(nodes, perNode, false);
  }

  /** The same cluster with zone, block and rack labels on its nodes. */
  public ClusterShape withTopology() {
    return new ClusterShape(nodes, perNode, true);
  }

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
      int rack = i / RACK_NODES;
      int block = rack / BLOCK_RACKS;
      Map<String, String> labels =
          topology
              ? Map.of(
                  "kubernetes.io/hostname",
                  name,
                  RACK,
                  "rack-" + rack,
                  BLOCK,
                  "block-" + block,
                  ZONE,
                  "zone-" + block / ZONE_BLOCKS)
              : Map.of("kubernetes.io/hostname", name);
      infos.add(
          new NodeInfo(
              name, labels, List.of(), perNode, Resource.EMPTY, Resource.EMPTY, true, false, 0));
    }
    return infos;
  }
}
