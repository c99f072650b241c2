package io.tyrl.arranger.testing;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One TYJob of the malformed corpus ({@code src/main/resources/malformed-tyjobs/}) and what must
 * happen to it.
 *
 * @param file the file it was read from, e.g. {@code counts-int32-max.yaml}
 * @param name its {@code metadata.name}
 * @param expected what must happen when it is submitted
 * @param field the field the API server's or Arranger's message must name, with indices ({@code
 *     spec.workerSets[0].counts})
 * @param description what is wrong with it, in words
 * @param body the object as written, types and all (a counts of {@code "three"} stays a string),
 *     ready to be sent as it is
 */
public record MalformedTYJob(
    String file,
    String name,
    Outcome expected,
    String field,
    String description,
    Map<String, Object> body) {

  /** What must happen to a malformed TYJob. */
  public enum Outcome {
    /** The API server refuses to store it (422), naming the field. */
    REFUSED,
    /**
     * The API server stores it; Arranger ends it {@code Failed} with {@code Validated=False} naming
     * the field.
     */
    FAILED
  }

  private static final Pattern INDEX = Pattern.compile("\\[[^\\]]*\\]");

  public MalformedTYJob {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(body, "body");
  }

  /**
   * Whether {@code message} names this job's field: as written, or without indices, the form in
   * which kube-apiserver 1.20 names fields of a list's items ({@code spec.workerSets.counts}).
   */
  public boolean isNamedIn(String message) {
    return message != null
        && (message.contains(field) || message.contains(INDEX.matcher(field).replaceAll("")));
  }

  @Override
  public String toString() {
    return file
        + " ("
        + description
        + "; "
        + expected.name().toLowerCase()
        + ", naming "
        + field
        + ")";
  }
}
