package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Marks part of a trace's multi-node jobs as asking for topology, on a cluster labelled by {@link
 * ClusterShape#withTopology()}. Of the jobs whose minimum needs more than one node, in trace order:
 * the first of every four is Required (the narrowest level whose domain could hold its minimum:
 * rack, block, else zone), the second Required at that level and Preferred a rack when the required
 * level is wider, the third Preferred a rack only, the fourth asks nothing. Reproducible: the marks
 * depend only on the trace.
 */
public final class TopologyMarks {

  private TopologyMarks() {}

  public static Trace mark(Trace trace, ClusterShape cluster) {
    long nodeGpus = cluster.perNode().get(Resource.GPU);
    long rackGpus = nodeGpus * ClusterShape.RACK_NODES;
    long blockGpus = rackGpus * ClusterShape.BLOCK_RACKS;
    long zoneGpus = blockGpus * ClusterShape.ZONE_BLOCKS;
    List<TraceJob> marked = new ArrayList<>(trace.jobs().size());
    int multiNode = 0;
    for (TraceJob job : trace.jobs()) {
      long gpus = job.minimumRequest().get(Resource.GPU);
      if (gpus <= nodeGpus) {
        marked.add(job);
        continue;
      }
      String required =
          gpus <= rackGpus
              ? ClusterShape.RACK
              : gpus <= blockGpus
                  ? ClusterShape.BLOCK
                  : gpus <= zoneGpus ? ClusterShape.ZONE : null;
      TopologyRequest request =
          switch (multiNode++ % 4) {
            case 0 -> new TopologyRequest(required, null);
            case 1 ->
                new TopologyRequest(
                    required, ClusterShape.RACK.equals(required) ? null : ClusterShape.RACK);
            case 2 -> new TopologyRequest(null, ClusterShape.RACK);
            default -> TopologyRequest.NONE;
          };
      marked.add(job.withTopology(request));
    }
    return new Trace(marked, trace.queues());
  }
}
