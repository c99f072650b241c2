package io.tyrl.arranger.scheduler.web;

import io.tyrl.arranger.kube.KubernetesClients;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.kube.leader.LeaderElectionProperties;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderNotFoundException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.logout.HttpStatusReturningLogoutSuccessHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;

/**
 * Spring Security for the view's paths only (the page, its assets, {@code /api/**}); the actuator,
 * on the management port, is left as it was. Signed in by session (the page) or by a bearer token
 * on each request (scripts); everything but the page, its assets and the session endpoint needs
 * one. POSTs need the session's CSRF token; the page allows no script, style or connection from
 * anywhere but itself.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
@EnableConfigurationProperties(WebProperties.class)
@Import({ViewApi.class, SessionApi.class, ViewProblems.class})
public class ViewSecurity {

  /** No inline script, nothing from elsewhere, never in a frame. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  @Bean
  KubernetesReviews kubernetesReviews(KubernetesClients clients, WebProperties properties) {
    return new KubernetesReviews(
        clients.requests(), properties.rememberRights(), Clock.systemUTC());
  }

  /**
   * No user names or passwords: sign-in is by Kubernetes token only. Without this bean Spring Boot
   * would make a user with a generated password.
   */
  @Bean
  AuthenticationManager noPasswordSignIn() {
    return authentication -> {
      throw new ProviderNotFoundException("sign in with a Kubernetes bearer token");
    };
  }

  @Bean
  Clock viewClock() {
    return Clock.systemUTC();
  }

  @Bean
  SecurityContextRepository viewSecurityContexts() {
    return new HttpSessionSecurityContextRepository();
  }

  @Bean
  CsrfTokenRepository viewCsrfTokens() {
    return new HttpSessionCsrfTokenRepository();
  }

  /**
   * Ahead of Spring Security's filters (order -100): a standby passes the request on before
   * anything of it is checked here; the leader checks it.
   */
  @Bean
  FilterRegistrationBean<StandbyForwarding> standbyForwarding(
      LeaderElection election,
      LeaderElectionProperties leaderElection,
      KubernetesClients clients,
      Environment environment) {
    LeaderLocator locator =
        new LeaderLocator(
            clients.requests(),
            leaderElection.leaseNamespace(),
            leaderElection.leaseName(),
            election.identity(),
            environment.getProperty("server.port", Integer.class, 8080),
            Clock.systemUTC());
    FilterRegistrationBean<StandbyForwarding> registration =
        new FilterRegistrationBean<>(
            new StandbyForwarding(election::isLeader, election.identity(), locator::locate));
    registration.addUrlPatterns("/api/*");
    registration.setOrder(-200);
    return registration;
  }

  @Bean
  SecurityFilterChain viewFilterChain(
      HttpSecurity http,
      KubernetesReviews reviews,
      SecurityContextRepository contexts,
      CsrfTokenRepository csrfTokens)
      throws Exception {
    http.securityMatcher("/", "/index.html", "/ui/**", "/api/**")
        .authorizeHttpRequests(
            requests ->
                requests
                    .requestMatchers("/", "/index.html", "/ui/**", "/api/v1/session")
                    .permitAll()
                    .anyRequest()
                    .authenticated())
        .securityContext(context -> context.securityContextRepository(contexts))
        // The token is the one kept in the session, sent as it is (no BREACH masking: the
        // responses that carry it are JSON for the page, not pages that reflect input).
        .csrf(
            csrf ->
                csrf.csrfTokenRepository(csrfTokens)
                    .csrfTokenRequestHandler(new CsrfTokenRequestAttributeHandler()))
        .addFilterBefore(new BearerTokenFilter(reviews), CsrfFilter.class)
        .exceptionHandling(
            errors ->
                errors
                    .authenticationEntryPoint(
                        (request, response, e) ->
                            refuse(
                                response,
                                HttpServletResponse.SC_UNAUTHORIZED,
                                "sign in with a Kubernetes bearer token"))
                    .accessDeniedHandler(
                        (request, response, e) ->
                            refuse(
                                response,
                                HttpServletResponse.SC_FORBIDDEN,
                                "the signed-in user may not do this")))
        .formLogin(AbstractHttpConfigurer::disable)
        .httpBasic(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .logout(
            logout ->
                logout
                    .logoutUrl("/api/v1/session/sign-out")
                    .logoutSuccessHandler(
                        new HttpStatusReturningLogoutSuccessHandler(HttpStatus.NO_CONTENT)))
        .headers(
            headers ->
                headers
                    .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                    .frameOptions(frame -> frame.deny()));
    return http.build();
  }

  /**
   * A refusal as JSON, escaped by hand: it is written before the request reaches Spring MVC and its
   * JSON library.
   */
  static void refuse(HttpServletResponse response, int status, String message) throws IOException {
    response.setStatus(status);
    if (status == HttpServletResponse.SC_UNAUTHORIZED) {
      response.setHeader("WWW-Authenticate", "Bearer realm=\"arranger\"");
    }
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write("{\"error\":\"" + jsonText(message) + "\"}");
  }

  private static String jsonText(String text) {
    StringBuilder escaped = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format("\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
