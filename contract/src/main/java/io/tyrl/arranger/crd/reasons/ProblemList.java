package io.tyrl.arranger.crd.reasons;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Problems with a job joined into one message, as a status, a condition and an Event carry them:
 * {@code field: problem; field: problem; and 3 more}. Only the first are listed, so that a job with
 * thousands of bad entries never makes a status too large to be written.
 */
public final class ProblemList {

  private ProblemList() {}

  /**
   * @param problems each in its {@code field: message} form ({@link Object#toString()})
   */
  public static String join(List<?> problems, int shown) {
    String listed =
        problems.stream().limit(shown).map(Object::toString).collect(Collectors.joining("; "));
    int more = problems.size() - shown;
    return more > 0 ? listed + "; and " + more + " more" : listed;
  }
}
