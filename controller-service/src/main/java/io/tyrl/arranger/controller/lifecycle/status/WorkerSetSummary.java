package io.tyrl.arranger.controller.lifecycle.status;

import java.util.Objects;

/**
 * One entry of {@code status.workerSets}.
 *
 * @param desired {@code counts} of the spec
 * @param created pods of the set that exist and are not being deleted
 * @param ready of those, the Running and Ready ones
 * @param restarts workers of this set lost and given back for rescheduling, counted by the
 *     controller
 */
public record WorkerSetSummary(String name, int desired, int created, int ready, int restarts) {

  public WorkerSetSummary {
    name = Objects.requireNonNullElse(name, "");
  }
}
