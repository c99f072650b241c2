package io.tyrl.arranger.kube.leader;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Lease-based leader election. The identity defaults to the pod name ({@code HOSTNAME}); two
 * replicas must never share one.
 */
@ConfigurationProperties("arranger.leader-election")
public record LeaderElectionProperties(
    @DefaultValue("true") boolean enabled,
    String leaseName,
    @DefaultValue("default") String leaseNamespace,
    String identity,
    @DefaultValue("15s") Duration leaseDuration,
    @DefaultValue("10s") Duration renewDeadline,
    @DefaultValue("2s") Duration retryPeriod) {

  public LeaderElectionProperties {
    if (enabled && (leaseName == null || leaseName.isBlank())) {
      throw new IllegalArgumentException("arranger.leader-election.lease-name is required when leader election is enabled");
    }
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException("arranger.leader-election.lease-duration (" + leaseDuration
          + ") must be longer than renew-deadline (" + renewDeadline + ")");
    }
    if (renewDeadline.compareTo(retryPeriod) <= 0) {
      throw new IllegalArgumentException("arranger.leader-election.renew-deadline (" + renewDeadline
          + ") must be longer than retry-period (" + retryPeriod + ")");
    }
  }

  public String effectiveIdentity() {
    if (identity != null && !identity.isBlank()) {
      return identity;
    }
    String hostname = System.getenv("HOSTNAME");
    return hostname != null && !hostname.isBlank() ? hostname : "arranger-" + ProcessHandle.current().pid();
  }
}
