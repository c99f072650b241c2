package io.tyrl.arranger.crd.bounds;

import java.util.Objects;

/**
 * One TYJob value outside the bounds of {@link TYJobBounds}.
 *
 * @param field the JSON path of the offending field, with indices, e.g. {@code
 *     spec.workerSets[1].counts}
 * @param value the offending value as the user wrote it (for a sum, the sum), e.g. {@code
 *     2147483647}
 * @param message what is wrong, naming the value and the bound, e.g. {@code 2147483647 is more than
 *     5000, the most one WorkerSet may ask for}
 */
public record BoundsProblem(String field, String value, String message) {

  public BoundsProblem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(message, "message");
  }

  /** {@code field: message}, the form used in conditions, events and logs. */
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
