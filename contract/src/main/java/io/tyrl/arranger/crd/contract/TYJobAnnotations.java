package io.tyrl.arranger.crd.contract;

/** The annotations a user may put on a TYJob to change how Arranger treats it. */
public final class TYJobAnnotations {

  /**
   * {@code "false"} keeps the job from being chosen as a preemption or reclaim victim; anything
   * else, or none, does not. Deprecated in favour of {@code spec.preemptible}, which wins when set,
   * and still honoured without it: {@link TYJobDefaults#preemptible} holds the rule.
   */
  public static final String PREEMPTABLE = PodLabels.PREFIX + "preemptable";

  private TYJobAnnotations() {}
}
