package io.tyrl.arranger.kube;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the service reaches the API server. With no {@code kubeconfig}, the client's standard lookup
 * applies: {@code $KUBECONFIG}, {@code ~/.kube/config}, then the in-cluster service account.
 */
@ConfigurationProperties("arranger.kubernetes")
public record KubernetesClientProperties(
    String kubeconfig,
    @DefaultValue("10s") Duration connectTimeout,
    @DefaultValue("30s") Duration requestTimeout) {

  public KubernetesClientProperties {
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("arranger.kubernetes.connect-timeout must be positive, got " + connectTimeout);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("arranger.kubernetes.request-timeout must be positive, got " + requestTimeout);
    }
  }
}
