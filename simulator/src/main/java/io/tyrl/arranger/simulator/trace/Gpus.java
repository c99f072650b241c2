package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.Resource;

/**
 * The simulator's workloads ask for whole GPUs and its metrics count them whole; the core counts
 * them in milli-GPU. This is the one place an amount is read as GPUs.
 */
public final class Gpus {

  private Gpus() {}

  /** The amount's GPUs, a share of one rounded up to a whole GPU. */
  public static long whole(Resource amount) {
    long milli = amount.get(Resource.GPU);
    return (milli + 999) / 1000;
  }
}
