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

  private TYJobDefaults() {}
}
