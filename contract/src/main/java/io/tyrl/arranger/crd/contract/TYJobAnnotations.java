package io.tyrl.arranger.crd.contract;

/** The annotations a user may put on a TYJob to change how Arranger treats it. */
public final class TYJobAnnotations {

  /**
   * {@code "false"} keeps the job from being chosen as a preemption or reclaim victim; anything
   * else, or none, does not.
   */
  public static final String PREEMPTABLE = PodLabels.PREFIX + "preemptable";

  private TYJobAnnotations() {}
}
