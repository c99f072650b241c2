package io.tyrl.arranger.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * The service's three clients: one for requests, each bounded by the request timeout as a whole;
 * one for informers' watches, which must not time out while the API server has nothing to say (read
 * timeout 0); one for the readiness probe, with a short timeout so that a frozen API server shows
 * within seconds. Each carries the given interceptors (the request metrics).
 */
public record KubernetesClients(ApiClient requests, ApiClient informers, ApiClient probes) {

  public static KubernetesClients create(KubernetesClientProperties properties) {
    return create(properties, List.of());
  }

  public static KubernetesClients create(
      KubernetesClientProperties properties, List<Interceptor> interceptors) {
    ApiClient requests = newClient(properties);
    requests.setHttpClient(
        builder(requests, interceptors)
            .connectTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .readTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .writeTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .callTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .build());
    ApiClient informers = newClient(properties);
    informers.setHttpClient(
        builder(informers, interceptors)
            .connectTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .readTimeout(0, TimeUnit.MILLISECONDS)
            .build());
    ApiClient probes = newClient(properties);
    long probeMillis =
        Math.min(properties.probeTimeout().toMillis(), properties.connectTimeout().toMillis());
    probes.setHttpClient(
        builder(probes, interceptors)
            .connectTimeout(probeMillis, TimeUnit.MILLISECONDS)
            .readTimeout(properties.probeTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .callTimeout(properties.probeTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .build());
    return new KubernetesClients(requests, informers, probes);
  }

  private static OkHttpClient.Builder builder(ApiClient client, List<Interceptor> interceptors) {
    OkHttpClient.Builder builder = client.getHttpClient().newBuilder();
    interceptors.forEach(builder::addInterceptor);
    return builder;
  }

  private static ApiClient newClient(KubernetesClientProperties properties) {
    try {
      if (properties.kubeconfig() == null || properties.kubeconfig().isBlank()) {
        return ClientBuilder.standard().build();
      }
      Path file = Path.of(properties.kubeconfig());
      try (Reader reader = Files.newBufferedReader(file)) {
        KubeConfig kubeConfig = KubeConfig.loadKubeConfig(reader);
        kubeConfig.setFile(file.toAbsolutePath().getParent().toFile());
        return ClientBuilder.kubeconfig(kubeConfig).build();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot configure the Kubernetes client (arranger.kubernetes.kubeconfig="
              + properties.kubeconfig()
              + "): "
              + e.getMessage(),
          e);
    }
  }
}
