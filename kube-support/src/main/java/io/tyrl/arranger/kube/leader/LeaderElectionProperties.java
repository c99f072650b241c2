package io.tyrl.arranger.kube.leader;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Lease-based leader election. The identity defaults to the pod name ({@code HOSTNAME}); two
 * replicas must never share one. A leader writes only while its last renewal is younger than {@code
 * renewDeadline} (see {@link LeadershipFence}); on a graceful stop it waits up to {@code
 * drainTimeout} for its writes in flight before it gives the lease up.
 */
@ConfigurationProperties("arranger.leader-election")
public record LeaderElectionProperties(
    @DefaultValue("true") boolean enabled,
    String leaseName,
    @DefaultValue("default") String leaseNamespace,
    String identity,
    @DefaultValue("15s") Duration leaseDuration,
    @DefaultValue("10s") Duration renewDeadline,
    @DefaultValue("2s") Duration retryPeriod,
    @DefaultValue("5s") Duration drainTimeout) {

  public LeaderElectionProperties {
    if (enabled && (leaseName == null || leaseName.isBlank())) {
      throw new IllegalArgumentException(
          "arranger.leader-election.lease-name is required when leader election is enabled");
    }
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException(
          "arranger.leader-election.lease-duration ("
              + leaseDuration
              + ") must be longer than renew-deadline ("
              + renewDeadline
              + ")");
    }
    if (drainTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "arranger.leader-election.drain-timeout must not be negative, got " + drainTimeout);
    }
    if (renewDeadline.compareTo(retryPeriod) <= 0) {
      throw new IllegalArgumentException(
          "arranger.leader-election.renew-deadline ("
              + renewDeadline
              + ") must be longer than retry-period ("
              + retryPeriod
              + ")");
    }
  }

  public String effectiveIdentity() {
    if (identity != null && !identity.isBlank()) {
      return identity;
    }
    String hostname = System.getenv("HOSTNAME");
    return hostname != null && !hostname.isBlank()
        ? hostname
        : "arranger-" + ProcessHandle.current().pid();
  }
}
