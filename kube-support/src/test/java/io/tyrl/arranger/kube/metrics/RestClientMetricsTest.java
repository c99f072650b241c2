package io.tyrl.arranger.kube.metrics;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tyrl.arranger.kube.FreePort;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestClientMetricsTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final OkHttpClient client =
      new OkHttpClient.Builder().addInterceptor(new RestClientMetrics(registry)).build();
  private WireMockServer apiServer;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
  }

  @AfterEach
  void stop() {
    apiServer.stop();
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "/api/v1/nodes, nodes",
    "/api/v1/namespaces/team-a/pods, pods",
    "/api/v1/namespaces/team-a/pods/p-0, pods",
    "/api/v1/namespaces/team-a/events, events",
    "/api/v1/namespaces/team-a, namespaces",
    "/apis/arranger.tyrl.io/v1alpha1/tyjobs, tyjobs",
    "/apis/arranger.tyrl.io/v1alpha1/namespaces/team-a/tyjobs/j/status, tyjobs/status",
    "/apis/arranger.tyrl.io/v1alpha1/queues/default, queues",
    "/apis/coordination.k8s.io/v1/namespaces/sys/leases/arranger-scheduler, leases",
    "/version, none",
    "/apis/arranger.tyrl.io/v1alpha1, none"
  })
  void resourceIsTakenFromThePath(String path, String resource) {
    List<String> segments = Arrays.asList(path.substring(1).split("/"));

    assertThat(RestClientMetrics.resource(segments)).isEqualTo(resource);
  }

  @Test
  void everyRequestIsCountedByCodeMethodAndHostAndTimedByVerbAndResource() throws IOException {
    apiServer.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200).withBody("{}")));
    String base = "http://127.0.0.1:" + apiServer.port();

    call(new Request.Builder().url(base + "/api/v1/namespaces/a/pods").build());
    call(new Request.Builder().url(base + "/api/v1/namespaces/a/pods?watch=true").build());
    call(
        new Request.Builder()
            .url(base + "/apis/arranger.tyrl.io/v1alpha1/namespaces/a/tyjobs/j/status")
            .patch(RequestBody.create("{}", MediaType.get("application/merge-patch+json")))
            .build());

    String scrape = registry.scrape();
    String host = "host=\"127.0.0.1:" + apiServer.port() + "\"";
    assertThat(scrape)
        .contains(
            "rest_client_requests_total{code=\"200\"," + host + ",method=\"GET\"} 2",
            "rest_client_requests_total{code=\"200\"," + host + ",method=\"PATCH\"} 1",
            "rest_client_request_duration_seconds_bucket{resource=\"pods\",verb=\"GET\",le=\"60.0\"} 1",
            "rest_client_request_duration_seconds_bucket{resource=\"pods\",verb=\"WATCH\",le=\"+Inf\"} 1",
            "rest_client_request_duration_seconds_count{resource=\"tyjobs/status\",verb=\"PATCH\"} 1");
  }

  @Test
  void aRequestWithoutResponseCountsAsError() {
    int closed = FreePort.closedOnLoopback();

    assertThatThrownBy(
            () ->
                call(
                    new Request.Builder()
                        .url("http://127.0.0.1:" + closed + "/api/v1/nodes")
                        .build()))
        .isInstanceOf(IOException.class);

    assertThat(registry.scrape())
        .contains(
            "rest_client_requests_total{code=\"<error>\",host=\"127.0.0.1:"
                + closed
                + "\",method=\"GET\"} 1");
  }

  private void call(Request request) throws IOException {
    try (Response response = client.newCall(request).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
  }
}
