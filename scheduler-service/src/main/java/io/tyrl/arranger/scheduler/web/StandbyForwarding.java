package io.tyrl.arranger.scheduler.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The view's API on a standby: only the leader runs cycles, and a Service over every replica sends
 * a connection to any of them, so a replica that does not lead passes each {@code /api/} request on
 * to the leader's pod and its answer back — sign-in, session cookie and CSRF token included, so a
 * session lives on the leader whichever replica the browser reaches. The page and its assets are
 * the same on every replica and are served where they are asked for.
 *
 * <p>The request is passed on once: a request already passed on is answered where it arrives, so
 * two replicas that each see the other as leader (a Lease changing hands) never pass it back and
 * forth. Nothing is retried: the page asks again at its next refresh. Every answer names the
 * replica that gave it ({@value #ANSWERED_BY}).
 */
final class StandbyForwarding extends OncePerRequestFilter {

  static final String FORWARDED_BY = "X-Arranger-Forwarded-By";
  static final String ANSWERED_BY = "X-Arranger-Replica";
  static final int BODY_LIMIT = 64 * 1024;
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

  /** Hop-by-hop headers and those the JDK's client sets itself: never passed either way. */
  private static final Set<String> NOT_PASSED =
      Set.of(
          "connection",
          "content-length",
          "date",
          "expect",
          "from",
          "host",
          "http2-settings",
          "keep-alive",
          "proxy-authorization",
          "proxy-connection",
          "te",
          "trailer",
          "transfer-encoding",
          "upgrade",
          "via",
          "warning",
          FORWARDED_BY.toLowerCase(Locale.ROOT),
          ANSWERED_BY.toLowerCase(Locale.ROOT));

  private final BooleanSupplier leading;
  private final String self;
  private final Supplier<LeaderRoute> route;
  private final HttpClient http;

  StandbyForwarding(BooleanSupplier leading, String self, Supplier<LeaderRoute> route) {
    this.leading = leading;
    this.self = self;
    this.route = route;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !request.getRequestURI().startsWith(request.getContextPath() + "/api/");
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (leading.getAsBoolean() || request.getHeader(FORWARDED_BY) != null) {
      response.setHeader(ANSWERED_BY, self);
      chain.doFilter(request, response);
      return;
    }
    LeaderRoute where = route.get();
    if (where instanceof LeaderRoute.Leader leader) {
      forward(request, response, leader);
    } else if (where instanceof LeaderRoute.Unreachable unreachable) {
      response.setHeader(ANSWERED_BY, self);
      ViewSecurity.refuse(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, unreachable.why());
    } else {
      response.setHeader(ANSWERED_BY, self);
      chain.doFilter(request, response);
    }
  }

  private void forward(
      HttpServletRequest request, HttpServletResponse response, LeaderRoute.Leader leader)
      throws IOException {
    byte[] body = request.getInputStream().readNBytes(BODY_LIMIT + 1);
    if (body.length > BODY_LIMIT) {
      response.setHeader(ANSWERED_BY, self);
      ViewSecurity.refuse(
          response,
          HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
          "a request to the view carries at most " + BODY_LIMIT + " bytes");
      return;
    }
    String query = request.getQueryString();
    URI target =
        URI.create(leader.base() + request.getRequestURI() + (query == null ? "" : "?" + query));
    HttpRequest.Builder passed =
        HttpRequest.newBuilder(target)
            .timeout(ANSWER_TIMEOUT)
            .method(
                request.getMethod(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    for (String name : Collections.list(request.getHeaderNames())) {
      if (!NOT_PASSED.contains(name.toLowerCase(Locale.ROOT))) {
        for (String value : Collections.list(request.getHeaders(name))) {
          passed.header(name, value);
        }
      }
    }
    passed.header(FORWARDED_BY, self);
    HttpResponse<byte[]> answer;
    try {
      answer = http.send(passed.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      response.setHeader(ANSWERED_BY, self);
      ViewSecurity.refuse(
          response,
          HttpServletResponse.SC_SERVICE_UNAVAILABLE,
          "this replica stands by, and the leader "
              + leader.identity()
              + " at "
              + leader.base()
              + " did not answer ("
              + e.getClass().getSimpleName()
              + ")");
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the leader " + leader.identity() + " answered", e);
    }
    response.setStatus(answer.statusCode());
    answer
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              if (!name.startsWith(":") && !NOT_PASSED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> response.addHeader(name, value));
              }
            });
    response.setHeader(
        ANSWERED_BY, answer.headers().firstValue(ANSWERED_BY).orElse(leader.identity()));
    response.getOutputStream().write(answer.body());
  }
}
