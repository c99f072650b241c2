package io.tyrl.arranger.scheduler.topology;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;

/**
 * What a gang needs from one domain: its amount per resource, and the resource it asks the most of
 * relative to the cluster (the one domains are compared by and messages name).
 *
 * @param amounts per session dimension; the pods dimension is not compared
 * @param scarcest the dimension of the largest share of the cluster's allocatable
 */
public record GangDemand(long[] amounts, int scarcest) {

  /** The demand of {@code amounts}, its scarcest resource found against the cluster. */
  public static GangDemand of(Session session, long[] amounts) {
    int scarcest = ResourceDimensions.CPU;
    double largestShare = -1;
    for (int d = 0; d < amounts.length; d++) {
      long cluster = session.clusterAllocatable(d);
      if (d == ResourceDimensions.PODS || amounts[d] <= 0) {
        continue;
      }
      double share = cluster <= 0 ? Double.MAX_VALUE : (double) amounts[d] / cluster;
      if (share > largestShare) {
        largestShare = share;
        scarcest = d;
      }
    }
    return new GangDemand(amounts.clone(), scarcest);
  }

  public long scarcestAmount() {
    return amounts[scarcest];
  }

  /** The scarcest resource's amount with its name: {@code 32 nvidia.com/gpu}. */
  public String describe(Session session) {
    return formatted(session, amounts[scarcest]) + " " + session.dimensions().name(scarcest);
  }

  /**
   * An amount of the scarcest resource in its units, without the name: {@code 24}, {@code 16Gi}.
   */
  public String formatted(Session session, long amount) {
    return Resource.formatQuantity(session.dimensions().name(scarcest), amount);
  }
}
