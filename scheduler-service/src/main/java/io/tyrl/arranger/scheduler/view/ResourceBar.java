package io.tyrl.arranger.scheduler.view;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * One resource of a queue or a node, in canonical units (millicores, bytes, counts) for drawing and
 * in Kubernetes quantities for reading.
 *
 * @param scale what a full bar stands for: the cluster's allocatable for a queue, the node's for a
 *     node
 * @param guarantee what the queue is guaranteed (0 for a node)
 * @param deserved the queue's fair share (the node's allocatable, for a node)
 * @param allocated what placed pods request
 */
public record ResourceBar(
    String resource,
    long scale,
    long guarantee,
    long deserved,
    long allocated,
    String guaranteeText,
    String deservedText,
    String allocatedText,
    String scaleText) {

  /** One bar per resource any of the figures names, in resource-name order. */
  static List<ResourceBar> of(
      Resource scale, Resource guarantee, Resource deserved, Resource allocated) {
    TreeSet<String> names = new TreeSet<>();
    names.addAll(guarantee.quantities().keySet());
    names.addAll(deserved.quantities().keySet());
    names.addAll(allocated.quantities().keySet());
    List<ResourceBar> bars = new ArrayList<>();
    for (String name : names) {
      bars.add(
          new ResourceBar(
              name,
              scale.get(name),
              guarantee.get(name),
              deserved.get(name),
              allocated.get(name),
              Resource.formatQuantity(name, guarantee.get(name)),
              Resource.formatQuantity(name, deserved.get(name)),
              Resource.formatQuantity(name, allocated.get(name)),
              Resource.formatQuantity(name, scale.get(name))));
    }
    return List.copyOf(bars);
  }
}
