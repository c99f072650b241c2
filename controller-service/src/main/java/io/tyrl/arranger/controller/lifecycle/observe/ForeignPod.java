package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Objects;

/**
 * A pod that holds a name the job needs but is not the job's (no controller reference to it): it is
 * never adopted, and the job's pod of that name is not created while it exists.
 *
 * @param owner who controls it, e.g. {@code ReplicaSet/web-7d9f}, or {@code no owner}
 */
public record ForeignPod(String name, String owner) {

  public ForeignPod {
    Objects.requireNonNull(name, "name");
    owner = owner == null || owner.isBlank() ? "no owner" : owner;
  }
}
