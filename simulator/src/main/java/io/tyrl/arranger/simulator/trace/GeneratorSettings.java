package io.tyrl.arranger.simulator.trace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link TraceGenerator} makes: {@code jobs} submissions over a cluster, arriving as a Poisson
 * process whose rate makes the offered load (requests × durations over capacity × time, on the most
 * demanded resource) equal {@code load}; queues by name → weight, each submitting the same share of
 * jobs.
 */
public record GeneratorSettings(
    int jobs, long seed, double load, ClusterShape cluster, Map<String, Integer> queues) {

  /** Three teams whose queues weigh 4, 2 and 1. */
  public static final Map<String, Integer> DEFAULT_QUEUES = defaultQueues();

  public GeneratorSettings {
    if (jobs < 1) {
      throw new IllegalArgumentException("jobs must be >= 1, was " + jobs);
    }
    if (!(load > 0) || load > 10) {
      throw new IllegalArgumentException("load must be within (0, 10], was " + load);
    }
    if (queues == null || queues.isEmpty()) {
      throw new IllegalArgumentException("at least one queue is needed");
    }
    queues.forEach(
        (name, weight) -> {
          if (weight < 1) {
            throw new IllegalArgumentException(
                "queue " + name + ": weight must be >= 1, was " + weight);
          }
        });
    queues = Map.copyOf(queues);
  }

  public static GeneratorSettings of(int jobs, long seed, double load, int nodes) {
    return new GeneratorSettings(jobs, seed, load, ClusterShape.gpuNodes(nodes), DEFAULT_QUEUES);
  }

  private static Map<String, Integer> defaultQueues() {
    Map<String, Integer> queues = new LinkedHashMap<>();
    queues.put("research", 4);
    queues.put("product", 2);
    queues.put("batch", 1);
    return java.util.Collections.unmodifiableMap(queues);
  }
}
