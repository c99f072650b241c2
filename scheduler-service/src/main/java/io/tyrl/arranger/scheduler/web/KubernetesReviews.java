package io.tyrl.arranger.scheduler.web;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;
import io.kubernetes.client.openapi.models.V1TokenReview;
import io.kubernetes.client.openapi.models.V1TokenReviewSpec;
import io.kubernetes.client.openapi.models.V1TokenReviewStatus;
import io.kubernetes.client.openapi.models.V1UserInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API server's word on who a token is (TokenReview) and what they may do (SubjectAccessReview),
 * with client-java's generated API classes. An answer about a right is kept for {@code remember}
 * (the page asks the same questions every few seconds); a token is reviewed at sign-in and on every
 * request that carries it, never kept.
 */
public final class KubernetesReviews {

  /**
   * What is asked: may the user {@code verb} {@code resource} of {@code group} in {@code
   * namespace}.
   */
  public record Right(String verb, String group, String resource, String namespace) {

    static Right list(String group, String resource, String namespace) {
      return new Right("list", group, resource, namespace);
    }
  }

  /** The API server could not answer; nothing is shown until it can. */
  public static final class ReviewUnavailable extends RuntimeException {
    ReviewUnavailable(String what, ApiException cause) {
      super(what + " failed: HTTP " + cause.getCode() + " " + cause.getMessage(), cause);
    }
  }

  private record Question(ViewUser user, Right right) {}

  private record Answer(boolean allowed, Instant until) {}

  private static final int ANSWERS_KEPT = 10_000;

  private final AuthenticationV1Api authentication;
  private final AuthorizationV1Api authorization;
  private final Duration remember;
  private final Clock clock;
  private final Map<Question, Answer> answers = new ConcurrentHashMap<>();

  public KubernetesReviews(ApiClient client, Duration remember, Clock clock) {
    this.authentication = new AuthenticationV1Api(client);
    this.authorization = new AuthorizationV1Api(client);
    this.remember = remember;
    this.clock = clock;
  }

  /** The token's user, or empty when the API server does not accept the token. */
  public Optional<ViewUser> review(String token) {
    V1TokenReview review;
    try {
      review =
          authentication
              .createTokenReview(new V1TokenReview().spec(new V1TokenReviewSpec().token(token)))
              .execute();
    } catch (ApiException e) {
      throw new ReviewUnavailable("TokenReview", e);
    }
    V1TokenReviewStatus status = review.getStatus();
    if (status == null
        || !Boolean.TRUE.equals(status.getAuthenticated())
        || status.getUser() == null) {
      return Optional.empty();
    }
    V1UserInfo user = status.getUser();
    return Optional.of(
        new ViewUser(user.getUsername(), user.getUid(), user.getGroups(), user.getExtra()));
  }

  /** Whether the API server allows the user the right (a namespace of null: cluster-wide). */
  public boolean allows(ViewUser user, Right right) {
    Question question = new Question(user, right);
    Instant now = clock.instant();
    Answer known = answers.get(question);
    if (known != null && now.isBefore(known.until())) {
      return known.allowed();
    }
    V1SubjectAccessReviewSpec spec =
        new V1SubjectAccessReviewSpec()
            .user(user.username())
            .uid(user.uid())
            .groups(user.groups())
            .extra(user.extra())
            .resourceAttributes(
                new V1ResourceAttributes()
                    .verb(right.verb())
                    .group(right.group())
                    .resource(right.resource())
                    .namespace(right.namespace()));
    V1SubjectAccessReview review;
    try {
      review =
          authorization.createSubjectAccessReview(new V1SubjectAccessReview().spec(spec)).execute();
    } catch (ApiException e) {
      throw new ReviewUnavailable("SubjectAccessReview", e);
    }
    V1SubjectAccessReviewStatus status = review.getStatus();
    boolean allowed = status != null && Boolean.TRUE.equals(status.getAllowed());
    if (answers.size() >= ANSWERS_KEPT) {
      answers.clear();
    }
    answers.put(question, new Answer(allowed, now.plus(remember)));
    return allowed;
  }
}
