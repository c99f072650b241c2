package io.tyrl.arranger.kube.informer;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests {@link ModelListerWatcher} makes and how it reads the answers, against a stub API
 * server.
 */
class ModelListerWatcherTest {

  private WireMockServer apiServer;
  private ModelListerWatcher<V1Node, V1NodeList> nodes;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    nodes = ModelListerWatcher.nodes(new ApiClient().setBasePath(apiServer.baseUrl()));
  }

  @AfterEach
  void stop() {
    apiServer.stop();
  }

  @Test
  void listsWithoutWatchingFromTheGivenVersionAndReadsTheItems() throws ApiException {
    apiServer.stubFor(
        get(urlPathEqualTo("/api/v1/nodes"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(
                        """
        {"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"41"},
         "items":[{"metadata":{"name":"n1","resourceVersion":"40"},"status":{"allocatable":{"cpu":"8"}}}]}""")));

    V1NodeList list = nodes.list(new CallGeneratorParams(true, "0", null));

    assertThat(list.getMetadata().getResourceVersion()).isEqualTo("41");
    assertThat(list.getItems())
        .singleElement()
        .satisfies(node -> assertThat(node.getMetadata().getName()).isEqualTo("n1"));
    apiServer.verify(
        WireMock.getRequestedFor(urlPathEqualTo("/api/v1/nodes"))
            .withQueryParam("resourceVersion", WireMock.equalTo("0"))
            .withQueryParam("watch", WireMock.equalTo("false")));
  }

  @Test
  void aListAnswerThatIsEmptyOrNotJsonIsAnApiExceptionNamingTheKind() {
    apiServer.stubFor(
        get(urlPathEqualTo("/api/v1/nodes")).willReturn(aResponse().withStatus(200).withBody("")));
    assertThatThrownBy(() -> nodes.list(new CallGeneratorParams(false, "0", null)))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("list of V1Node")
        .hasMessageContaining("empty");

    apiServer.stubFor(
        get(urlPathEqualTo("/api/v1/nodes"))
            .willReturn(aResponse().withStatus(200).withBody("<html>")));
    assertThatThrownBy(() -> nodes.list(new CallGeneratorParams(false, "0", null)))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("list of V1Node failed");
  }

  @Test
  void aRefusedListCarriesTheCodeAndTheApiServersAnswer() {
    apiServer.stubFor(
        get(urlPathEqualTo("/api/v1/nodes"))
            .willReturn(
                aResponse()
                    .withStatus(410)
                    .withBody("{\"kind\":\"Status\",\"reason\":\"Expired\",\"code\":410}")));

    assertThatThrownBy(() -> nodes.list(new CallGeneratorParams(false, "7", null)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(410);
              assertThat(e.getResponseBody()).contains("Expired");
            });
  }

  @Test
  void watchesFromTheGivenVersionWithItsTimeoutAndReadsEachEvent() throws Exception {
    apiServer.stubFor(
        get(urlPathEqualTo("/api/v1/nodes"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(
                        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"n2\",\"resourceVersion\":\"42\"}}}\n"
                            + "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"n1\",\"resourceVersion\":\"43\"}}}\n")));

    try (Watchable<V1Node> watch = nodes.watch(new CallGeneratorParams(false, "41", 300))) {
      Watch.Response<V1Node> added = watch.next();
      Watch.Response<V1Node> deleted = watch.next();
      assertThat(added.type + " " + added.object.getMetadata().getName()).isEqualTo("ADDED n2");
      assertThat(deleted.type + " " + deleted.object.getMetadata().getName())
          .isEqualTo("DELETED n1");
      assertThat(watch.hasNext()).isFalse();
    }
    apiServer.verify(
        WireMock.getRequestedFor(urlPathEqualTo("/api/v1/nodes"))
            .withQueryParam("resourceVersion", WireMock.equalTo("41"))
            .withQueryParam("watch", WireMock.equalTo("true"))
            .withQueryParam("timeoutSeconds", WireMock.equalTo("300")));
  }
}
