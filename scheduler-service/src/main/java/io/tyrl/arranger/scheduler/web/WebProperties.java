package io.tyrl.arranger.scheduler.web;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The operator's window ({@code arranger.web.*}).
 *
 * @param rememberRights how long an answer of a SubjectAccessReview is reused: a right granted or
 *     taken away shows within this time
 * @param refresh how often the page asks for the last cycle again
 */
@ConfigurationProperties("arranger.web")
public record WebProperties(
    @DefaultValue("10s") Duration rememberRights, @DefaultValue("2s") Duration refresh) {

  public WebProperties {
    if (rememberRights == null || rememberRights.isNegative()) {
      throw new IllegalArgumentException("arranger.web.remember-rights must be 0 or more");
    }
    if (refresh == null || refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException("arranger.web.refresh must be positive");
    }
  }
}
