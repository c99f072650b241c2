package io.tyrl.arranger.crd.contract;

/**
 * The defaults the TYJob CRD declares. The API server fills them in on create; both services read
 * these constants where a field is absent anyway (an object stored before a default existed), so a
 * job means the same to the scheduler and the controller. {@code TYJobBoundsCrdTest} fails when the
 * CRD and this class disagree.
 */
public final class TYJobDefaults {

  public static final int RESTART_LIMIT = 3;
  public static final int WORKER_SET_COUNTS = 1;
  public static final String CLEAN_POD_POLICY = "All";
  public static final boolean TERMINATING = false;
  public static final int MIN_WORKERS_NUM = 1;
  public static final int PRIORITY = 5;
  public static final String PREEMPTION_POLICY = "PreemptLowerPriority";
  public static final String QUEUE = "default";
  public static final String GANG_MODE = "Strict";

  /**
   * A job may be chosen as a preemption or reclaim victim unless it opts out. Not a schema default:
   * {@code spec.preemptible} has none, so that an absent field still lets the older annotation
   * decide ({@link #preemptible}).
   */
  public static final boolean PREEMPTIBLE = true;

  private TYJobDefaults() {}

  /**
   * Whether a job may be chosen as a preemption or reclaim victim, the one rule both the field and
   * the annotation it replaces go through: {@code spec.preemptible} when set; else the deprecated
   * annotation {@link TYJobAnnotations#PREEMPTABLE}, where {@code "false"} (any case, spaces around
   * ignored) opts out and any other value does not; else {@link #PREEMPTIBLE}. Jobs stored before
   * the field existed keep their meaning.
   *
   * @param specPreemptible {@code spec.preemptible}; null when absent
   * @param preemptableAnnotation the annotation's value; null when absent
   */
  public static boolean preemptible(Boolean specPreemptible, String preemptableAnnotation) {
    if (specPreemptible != null) {
      return specPreemptible;
    }
    if (preemptableAnnotation != null) {
      return !preemptableAnnotation.trim().equalsIgnoreCase("false");
    }
    return PREEMPTIBLE;
  }
}
