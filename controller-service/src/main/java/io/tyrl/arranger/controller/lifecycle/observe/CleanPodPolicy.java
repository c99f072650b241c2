package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.util.Arrays;
import java.util.Optional;

/** {@code spec.cleanPodPolicy}: which pods are deleted once the job has ended. */
public enum CleanPodPolicy {
  /** Every pod of the job. */
  ALL("All"),
  /** Only pods that still hold resources: Pending, Running, or Unknown (possibly running). */
  RUNNING("Running"),
  /** No pod: they stay for inspection. */
  NONE("None");

  /** The CRD's default, also used while a job that failed validation is cleaned up. */
  public static final CleanPodPolicy DEFAULT =
      Arrays.stream(values())
          .filter(policy -> policy.wireName.equals(TYJobDefaults.CLEAN_POD_POLICY))
          .findFirst()
          .orElseThrow();

  private final String wireName;

  CleanPodPolicy(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** Empty for a value outside the enum; an empty string means "not set". */
  public static Optional<CleanPodPolicy> fromWireName(String value) {
    if (value == null || value.isEmpty()) {
      return Optional.of(DEFAULT);
    }
    for (CleanPodPolicy policy : values()) {
      if (policy.wireName.equals(value)) {
        return Optional.of(policy);
      }
    }
    return Optional.empty();
  }
}
