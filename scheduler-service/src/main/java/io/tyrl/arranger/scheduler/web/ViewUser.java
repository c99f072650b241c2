package io.tyrl.arranger.scheduler.web;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Who the API server says a token belongs to (TokenReview's {@code status.user}): what each
 * SubjectAccessReview asks about. The token itself is not kept.
 */
public record ViewUser(
    String username, String uid, List<String> groups, Map<String, List<String>> extra)
    implements Serializable {

  public ViewUser {
    groups = groups == null ? List.of() : List.copyOf(groups);
    extra = extra == null ? Map.of() : Map.copyOf(extra);
  }
}
