package io.tyrl.arranger.crd.contract;

/**
 * Deterministic pod names: {@code <job>-<leader.name>} and {@code <job>-<workerSet.name>-<index>}.
 *
 * <p>The scheduler's allocations and the controller's pods meet by these names; because a name is
 * fixed before the pod exists, creating a pod twice is refused by the API server (AlreadyExists)
 * instead of yielding a twin.
 */
public final class PodNames {

  private PodNames() {}

  public static String leader(String jobName, String leaderName) {
    return jobName + "-" + leaderName;
  }

  public static String worker(String jobName, String workerSetName, int index) {
    return jobName + "-" + workerSetName + "-" + index;
  }
}
