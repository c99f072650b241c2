package io.tyrl.arranger.controller.lifecycle.validation;

import java.util.Objects;

/**
 * One thing wrong with a TYJob.
 *
 * @param field the JSON path of the offending field, e.g. {@code spec.workerSets[1].name}
 * @param message what is wrong with it, e.g. {@code duplicate name "actor"}
 */
public record ValidationProblem(String field, String message) {

  public ValidationProblem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  /** {@code field: message}, the form used in conditions and events. */
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
