package io.tyrl.arranger.scheduler.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A request with {@code Authorization: Bearer <token>} (a script, {@code curl}) is the token's user
 * for that request alone, after a TokenReview; no session is made. A token the API server does not
 * accept is answered 401 at once.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

  private static final String PREFIX = "Bearer ";

  private final KubernetesReviews reviews;

  BearerTokenFilter(KubernetesReviews reviews) {
    this.reviews = reviews;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      chain.doFilter(request, response);
      return;
    }
    Optional<ViewUser> user;
    try {
      user = reviews.review(header.substring(PREFIX.length()).trim());
    } catch (KubernetesReviews.ReviewUnavailable e) {
      ViewSecurity.refuse(
          response,
          HttpServletResponse.SC_SERVICE_UNAVAILABLE,
          "the API server could not review the token");
      return;
    }
    if (user.isEmpty()) {
      ViewSecurity.refuse(
          response, HttpServletResponse.SC_UNAUTHORIZED, "the API server did not accept the token");
      return;
    }
    SecurityContext context = SecurityContextHolder.createEmptyContext();
    context.setAuthentication(
        UsernamePasswordAuthenticationToken.authenticated(user.get(), null, List.of()));
    SecurityContextHolder.setContext(context);
    chain.doFilter(request, response);
  }
}
