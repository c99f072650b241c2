package io.tyrl.arranger.scheduler.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sign-in with a Kubernetes bearer token, as the Kubernetes Dashboard does: the API server reviews
 * the token (TokenReview) and the session keeps who it belongs to, not the token. The session
 * cookie is HttpOnly and SameSite=Strict; every POST carries the session's CSRF token, which the
 * page reads here.
 */
@RestController
@RequestMapping("/api/v1/session")
class SessionApi {

  record SignIn(String token) {}

  /**
   * @param csrfHeader the header a POST must carry {@code csrfToken} in
   * @param refreshMillis how often the page asks again
   */
  record Session(
      boolean signedIn,
      String username,
      List<String> groups,
      String csrfHeader,
      String csrfToken,
      long refreshMillis) {}

  private final KubernetesReviews reviews;
  private final SecurityContextRepository contexts;
  private final CsrfTokenRepository csrfTokens;
  private final WebProperties properties;

  SessionApi(
      KubernetesReviews reviews,
      SecurityContextRepository contexts,
      CsrfTokenRepository csrfTokens,
      WebProperties properties) {
    this.reviews = reviews;
    this.contexts = contexts;
    this.csrfTokens = csrfTokens;
    this.properties = properties;
  }

  @GetMapping
  Session current(@AuthenticationPrincipal ViewUser user, CsrfToken csrf) {
    return session(user, csrf);
  }

  @PostMapping
  Session signIn(
      @RequestBody(required = false) SignIn body,
      HttpServletRequest request,
      HttpServletResponse response) {
    if (body == null || body.token() == null || body.token().isBlank()) {
      throw new ViewProblem(HttpStatus.BAD_REQUEST, "token: a Kubernetes bearer token is required");
    }
    ViewUser user =
        reviews
            .review(body.token().trim())
            .orElseThrow(
                () ->
                    new ViewProblem(
                        HttpStatus.UNAUTHORIZED, "the API server did not accept the token"));
    // A new session id and a new CSRF token at sign-in: neither can have been planted before it.
    if (request.getSession(false) != null) {
      request.changeSessionId();
    }
    SecurityContext context = SecurityContextHolder.createEmptyContext();
    context.setAuthentication(
        UsernamePasswordAuthenticationToken.authenticated(user, null, List.of()));
    SecurityContextHolder.setContext(context);
    contexts.saveContext(context, request, response);
    csrfTokens.saveToken(null, request, response);
    CsrfToken fresh = csrfTokens.generateToken(request);
    csrfTokens.saveToken(fresh, request, response);
    return session(user, fresh);
  }

  private Session session(ViewUser user, CsrfToken csrf) {
    return new Session(
        user != null,
        user == null ? null : user.username(),
        user == null ? List.of() : user.groups(),
        csrf.getHeaderName(),
        csrf.getToken(),
        properties.refresh().toMillis());
  }
}
