package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Objects;

/**
 * A value of {@code TYJob.spec} as stored that the TYJob model cannot hold (a count beyond int32,
 * text where a number belongs, a template pods cannot be made from): the adapter can read nothing
 * else of the spec, and validation fails the job naming the field.
 *
 * @param field the JSON path of the value, e.g. {@code spec.workerSets[0].counts}
 * @param reason what is wrong with it, e.g. {@code 10000000000 is not a 32-bit integer}
 */
public record UnreadableField(String field, String reason) {

  public UnreadableField {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
  }
}
