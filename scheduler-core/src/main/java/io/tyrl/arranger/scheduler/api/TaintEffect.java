package io.tyrl.arranger.scheduler.api;

/** What a node taint does to pods that do not tolerate it. */
public enum TaintEffect {
  NO_SCHEDULE("NoSchedule"),
  PREFER_NO_SCHEDULE("PreferNoSchedule"),
  NO_EXECUTE("NoExecute");

  private final String kubernetesName;

  TaintEffect(String kubernetesName) {
    this.kubernetesName = kubernetesName;
  }

  public String kubernetesName() {
    return kubernetesName;
  }

  /** Parses the Kubernetes spelling ("NoSchedule"). */
  public static TaintEffect fromKubernetes(String name) {
    for (TaintEffect effect : values()) {
      if (effect.kubernetesName.equals(name)) {
        return effect;
      }
    }
    throw new IllegalArgumentException(
        "unknown taint effect '" + name + "': expected NoSchedule, PreferNoSchedule or NoExecute");
  }
}
