package io.tyrl.arranger.scheduler.kube;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Queue's status is written once per change: not again while unchanged, nor before the informer
 * shows a write.
 */
class QueueStatusWriterTest {

  private static final String PATH = "/apis/arranger.tyrl.io/v1alpha1/queues/research/status";
  private static final QueueSummary SUMMARY =
      new QueueSummary(
          "research",
          Resource.of("cpu", "10", "memory", "40Gi"),
          Resource.of("cpu", "6500m", "memory", "12Gi", "nvidia.com/gpu", "2"),
          1,
          2,
          3,
          false,
          3);
  private static final String STATUS =
      """
      {"deserved":{"cpu":"10","memory":"40Gi"},"allocated":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":"2"},
       "pending":1,"inqueue":2,"running":3,"overused":false}""";

  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private WireMockServer apiServer;
  private QueueStatusWriter writer;

  @BeforeEach
  void start() {
    apiServer = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    apiServer.start();
    apiServer.stubFor(
        patch(urlEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"metadata\":{\"name\":\"research\",\"resourceVersion\":\"12\"}}")));
    ApiClient client = new ClientBuilder().setBasePath(apiServer.baseUrl()).build();
    writer =
        new QueueStatusWriter(
            new StatusPatcher(
                client,
                new Backoff(Duration.ofMillis(5), Duration.ofMillis(20), 3),
                () -> true,
                Duration.ofSeconds(5)),
            threads);
  }

  @AfterEach
  void stop() {
    apiServer.stop();
    threads.shutdownNow();
  }

  private static Map<String, ClusterInformers.ObservedQueue> observed(
      String resourceVersion, String status) {
    JsonObject json = status == null ? null : JsonParser.parseString(status).getAsJsonObject();
    return Map.of(
        "research", new ClusterInformers.ObservedQueue("research", resourceVersion, json));
  }

  @Test
  void writesOncePerChange() {
    QueueStatusWriter.Report first =
        writer.write(Map.of("research", SUMMARY), observed("11", null));

    assertThat(first.written()).isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withHeader("Content-Type", equalTo("application/merge-patch+json"))
            .withRequestBody(
                equalToJson(
                    "{\"metadata\":{\"resourceVersion\":\"11\"},\"status\":" + STATUS + "}")));

    // The informer has not shown the write yet: nothing again.
    assertThat(writer.write(Map.of("research", SUMMARY), observed("11", null)).unchanged())
        .isEqualTo(1);
    // It has: nothing again either, however many cycles pass.
    for (int cycle = 0; cycle < 5; cycle++) {
      assertThat(writer.write(Map.of("research", SUMMARY), observed("12", STATUS)).written())
          .isZero();
    }
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));

    // A change: one job less pending, and the GPUs given back.
    QueueSummary changed =
        new QueueSummary(
            "research",
            SUMMARY.deserved(),
            Resource.of("cpu", "6500m", "memory", "12Gi"),
            0,
            2,
            3,
            false,
            2);
    assertThat(writer.write(Map.of("research", changed), observed("12", STATUS)).written())
        .isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    """
            {"metadata":{"resourceVersion":"12"},"status":{"deserved":{"cpu":"10","memory":"40Gi"},
             "allocated":{"cpu":"6500m","memory":"12Gi","nvidia.com/gpu":null},
             "pending":0,"inqueue":2,"running":3,"overused":false}}""")));
  }

  /**
   * An idle queue's counts are all 0: it is written once all the same, so that kubectl shows 0, not
   * nothing.
   */
  @Test
  void anIdleQueueIsWrittenOnceToo() {
    QueueSummary idle =
        new QueueSummary("research", Resource.EMPTY, Resource.EMPTY, 0, 0, 0, false, 0);

    assertThat(writer.write(Map.of("research", idle), observed("11", null)).written()).isEqualTo(1);
    apiServer.verify(
        1,
        patchRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    """
        {"metadata":{"resourceVersion":"11"},"status":{"deserved":{},"allocated":{},
         "pending":0,"inqueue":0,"running":0,"overused":false}}""")));
    String written =
        "{\"deserved\":{},\"allocated\":{},\"pending\":0,\"inqueue\":0,\"running\":0,\"overused\":false}";
    assertThat(writer.write(Map.of("research", idle), observed("12", written)).written()).isZero();
    apiServer.verify(1, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aQueueThatIsNotCachedIsNotWritten() {
    QueueStatusWriter.Report report = writer.write(Map.of("research", SUMMARY), Map.of());

    assertThat(report.written()).isZero();
    apiServer.verify(0, patchRequestedFor(urlEqualTo(PATH)));
  }

  @Test
  void aStatusEditedBySomeoneElseIsWrittenBack() {
    writer.write(Map.of("research", SUMMARY), observed("11", null));
    String edited = STATUS.replace("\"running\":3", "\"running\":99");

    assertThat(writer.write(Map.of("research", SUMMARY), observed("13", edited)).written())
        .isEqualTo(1);
    apiServer.verify(2, patchRequestedFor(urlEqualTo(PATH)));
  }
}
