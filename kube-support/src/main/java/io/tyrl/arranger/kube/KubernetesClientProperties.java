package io.tyrl.arranger.kube;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the service reaches the API server. With no {@code kubeconfig}, the client's standard lookup
 * applies: {@code $KUBECONFIG}, {@code ~/.kube/config}, then the in-cluster service account. {@code
 * requestTimeout} bounds a whole request (the leader's write fence counts on it); {@code
 * probeTimeout} bounds the readiness check's call, so that readiness follows the API server within
 * seconds.
 */
@ConfigurationProperties("arranger.kubernetes")
public record KubernetesClientProperties(
    String kubeconfig,
    @DefaultValue("10s") Duration connectTimeout,
    @DefaultValue("10s") Duration requestTimeout,
    @DefaultValue("2s") Duration probeTimeout) {

  public KubernetesClientProperties {
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException(
          "arranger.kubernetes.connect-timeout must be positive, got " + connectTimeout);
    }
    if (probeTimeout.isNegative() || probeTimeout.isZero()) {
      throw new IllegalArgumentException(
          "arranger.kubernetes.probe-timeout must be positive, got " + probeTimeout);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException(
          "arranger.kubernetes.request-timeout must be positive, got " + requestTimeout);
    }
  }
}
