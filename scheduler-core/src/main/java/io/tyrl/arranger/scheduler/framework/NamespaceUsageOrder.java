package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import java.util.HashMap;
import java.util.Map;

/**
 * Orders the jobs of one leaf queue by their namespace's past usage in it, least first: per-user
 * fairness inside a team's queue. A namespace's usage counts by its dominant resource — the one it
 * held the largest share of the cluster of, on (decayed) average — so a cpu-only namespace and a
 * GPU namespace compare on what each used most. Jobs of one namespace fall through to the plugins'
 * order.
 */
final class NamespaceUsageOrder {

  private record Key(QueueState queue, String namespace) {}

  private final Session session;
  private final Map<Key, Double> dominantShares = new HashMap<>();

  NamespaceUsageOrder(Session session) {
    this.session = session;
  }

  int compare(JobState first, JobState second) {
    String firstNamespace = first.info().namespace();
    String secondNamespace = second.info().namespace();
    if (firstNamespace.equals(secondNamespace) || first.queue() == null) {
      return 0;
    }
    return Double.compare(
        dominantShare(first.queue(), firstNamespace),
        dominantShare(second.queue(), secondNamespace));
  }

  private double dominantShare(QueueState queue, String namespace) {
    return dominantShares.computeIfAbsent(
        new Key(queue, namespace),
        key -> {
          FairnessConfiguration fairness = session.fairness();
          DecayedUsage usage = session.usageOf(queue).namespace(namespace);
          ResourceDimensions dimensions = session.dimensions();
          double dominant = 0;
          for (int d = 0; d < dimensions.size(); d++) {
            if (d != ResourceDimensions.PODS) {
              dominant =
                  Math.max(
                      dominant,
                      usage.clusterShare(
                          dimensions.name(d),
                          session.clusterAllocatable(d),
                          fairness.halfLife(),
                          fairness.window()));
            }
          }
          return dominant;
        });
  }
}
