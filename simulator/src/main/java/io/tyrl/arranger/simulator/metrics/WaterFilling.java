package io.tyrl.arranger.simulator.metrics;

/**
 * Deserved shares of one resource by weighted water-filling: capacity is split by weight among the
 * queues that ask for something; a queue offered more than it asks gets what it asks, and the rest
 * is split again among the others, until every queue is either satisfied or gets its weighted part.
 */
public final class WaterFilling {

  private WaterFilling() {}

  public static double[] deserved(double capacity, int[] weights, double[] demand) {
    if (weights.length != demand.length) {
      throw new IllegalArgumentException("weights and demand differ in length");
    }
    double[] deserved = new double[weights.length];
    boolean[] settled = new boolean[weights.length];
    double remaining = capacity;
    for (int i = 0; i < demand.length; i++) {
      settled[i] = demand[i] <= 0;
    }
    boolean cappedOne = true;
    while (cappedOne && remaining > 0) {
      cappedOne = false;
      double weight = 0;
      for (int i = 0; i < weights.length; i++) {
        weight += settled[i] ? 0 : weights[i];
      }
      if (weight == 0) {
        break;
      }
      for (int i = 0; i < weights.length; i++) {
        if (!settled[i] && demand[i] <= remaining * weights[i] / weight) {
          deserved[i] = demand[i];
          settled[i] = true;
          cappedOne = true;
        }
      }
      if (cappedOne) {
        remaining = capacity;
        for (int i = 0; i < weights.length; i++) {
          remaining -= settled[i] ? deserved[i] : 0;
        }
      } else {
        for (int i = 0; i < weights.length; i++) {
          if (!settled[i]) {
            deserved[i] = remaining * weights[i] / weight;
          }
        }
      }
    }
    return deserved;
  }
}
