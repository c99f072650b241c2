package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link TenantTraceGenerator} makes: {@code jobs} RL jobs over a queue tree, each leaf
 * submitting its {@code volume} fraction of them in bursts (a burst of {@code meanBurstJobs} jobs
 * on average, {@code meanGapInBurstSeconds} apart on average; bursts start at random over the
 * trace), at the rate that makes the offered GPU load {@code load}.
 */
public record TenantSettings(
    int jobs,
    long seed,
    double load,
    ClusterShape cluster,
    QueueTree tree,
    Map<String, Double> volume,
    double meanBurstJobs,
    double meanGapInBurstSeconds) {

  /** Teams submit eight jobs at a time on average, half a minute apart. */
  public static final double MEAN_BURST_JOBS = 8;

  public static final double MEAN_GAP_IN_BURST_SECONDS = 30;

  public TenantSettings {
    if (jobs < 1) {
      throw new IllegalArgumentException("jobs must be >= 1, was " + jobs);
    }
    if (!(load > 0) || load > 10) {
      throw new IllegalArgumentException("load must be within (0, 10], was " + load);
    }
    if (!(meanBurstJobs >= 1) || !(meanGapInBurstSeconds >= 0)) {
      throw new IllegalArgumentException(
          "a burst has at least one job on average and its gaps are >= 0 s");
    }
    volume = Map.copyOf(volume);
    List<String> leaves = tree.leaves().stream().map(QueueSpec::name).toList();
    double total = 0;
    for (Map.Entry<String, Double> entry : volume.entrySet()) {
      if (!leaves.contains(entry.getKey())) {
        throw new IllegalArgumentException(
            "queue " + entry.getKey() + " submits jobs but is not a leaf of the tree");
      }
      if (!(entry.getValue() >= 0)) {
        throw new IllegalArgumentException(
            "queue " + entry.getKey() + ": volume must be >= 0, was " + entry.getValue());
      }
      total += entry.getValue();
    }
    if (!(total > 0)) {
      throw new IllegalArgumentException("some queue must submit jobs");
    }
  }

  /**
   * Three departments of two or three teams on {@code nodes} GPU nodes, guarantees and limits as
   * fractions of the cluster (cpu, memory and GPUs alike):
   *
   * <pre>
   * research  weight 3, guaranteed 40 %
   *   research-llm      weight 2, guaranteed 25 %          22 % of the jobs
   *   research-vision   weight 1, guaranteed 10 %          10 %
   *   research-explore  weight 1                           13 %
   * product   weight 2, guaranteed 30 %
   *   product-ranking   weight 1, guaranteed 20 %          15 %
   *   product-ads       weight 1                           12 %
   * batch     weight 1, at most 35 %
   *   batch-eval        weight 1, priority 1               16 %
   *   batch-sweeps      weight 2, at most 20 %             12 %
   * </pre>
   */
  public static TenantSettings of(int jobs, long seed, double load, int nodes) {
    ClusterShape cluster = ClusterShape.gpuNodes(nodes);
    Resource capacity = cluster.capacity();
    QueueTree tree =
        new QueueTree(
            List.of(
                new QueueSpec("research", null, 3, 0, part(capacity, 0.40), null),
                new QueueSpec("research-llm", "research", 2, 0, part(capacity, 0.25), null),
                new QueueSpec("research-vision", "research", 1, 0, part(capacity, 0.10), null),
                new QueueSpec("research-explore", "research", 1, 0, null, null),
                new QueueSpec("product", null, 2, 0, part(capacity, 0.30), null),
                new QueueSpec("product-ranking", "product", 1, 0, part(capacity, 0.20), null),
                new QueueSpec("product-ads", "product", 1, 0, null, null),
                new QueueSpec("batch", null, 1, 0, null, part(capacity, 0.35)),
                new QueueSpec("batch-eval", "batch", 1, 1, null, null),
                new QueueSpec("batch-sweeps", "batch", 2, 0, null, part(capacity, 0.20))));
    Map<String, Double> volume = new LinkedHashMap<>();
    volume.put("research-llm", 0.22);
    volume.put("research-vision", 0.10);
    volume.put("research-explore", 0.13);
    volume.put("product-ranking", 0.15);
    volume.put("product-ads", 0.12);
    volume.put("batch-eval", 0.16);
    volume.put("batch-sweeps", 0.12);
    return new TenantSettings(
        jobs, seed, load, cluster, tree, volume, MEAN_BURST_JOBS, MEAN_GAP_IN_BURST_SECONDS);
  }

  /** {@code fraction} of the cluster's cpu, memory and GPUs, rounded down. */
  static Resource part(Resource capacity, double fraction) {
    Map<String, Long> amounts = new LinkedHashMap<>();
    for (String resource : List.of(Resource.CPU, Resource.MEMORY, Resource.GPU)) {
      amounts.put(resource, (long) Math.floor(capacity.get(resource) * fraction));
    }
    return Resource.ofCanonical(amounts);
  }
}
