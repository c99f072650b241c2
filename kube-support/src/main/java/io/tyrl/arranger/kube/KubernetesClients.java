package io.tyrl.arranger.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The service's two clients: one for requests, with timeouts; one for informers' watches, which
 * must not time out while the API server has nothing to say (read timeout 0).
 */
public record KubernetesClients(ApiClient requests, ApiClient informers) {

  public static KubernetesClients create(KubernetesClientProperties properties) {
    ApiClient requests = newClient(properties);
    requests.setHttpClient(requests.getHttpClient().newBuilder()
        .connectTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .readTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .writeTimeout(properties.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .build());
    ApiClient informers = newClient(properties);
    informers.setHttpClient(informers.getHttpClient().newBuilder()
        .connectTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .readTimeout(0, TimeUnit.MILLISECONDS)
        .build());
    return new KubernetesClients(requests, informers);
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
      throw new UncheckedIOException("cannot configure the Kubernetes client (arranger.kubernetes.kubeconfig="
          + properties.kubeconfig() + "): " + e.getMessage(), e);
    }
  }
}
