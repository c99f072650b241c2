package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.ReplicaPods;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas behind one Service: whichever one a request reaches, the view is the leader's. The
 * standby passes the view's API on to the pod the Lease names, sign-in and session included; once
 * the leader is gone the standby leads and answers itself, and the session, which lived on the old
 * leader, asks to sign in again.
 */
@ExtendWith(KubeApiServerExtension.class)
class StandbyViewIT {

  private static final String ANSWERED_BY = "X-Arranger-Replica";
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aStandbyPassesTheViewOnToTheLeaderAndAnswersItselfOnceItLeads(
      ControlPlane controlPlane, ApiClient client) throws Exception {
    String test = ClusterFixtures.unique("standby");
    String namespace = ClusterFixtures.namespace(client, "standby");
    // Nowhere to go: it waits, with a reason, in every cycle.
    TYJobBuilder.named("waiting")
        .namespace(namespace)
        .leader("learner", "1", "512Mi")
        .workers("actor", 1, "1", "512Mi")
        .nodeSelector("arranger-test", test)
        .create(client);
    String admin = controlPlane.token(ControlPlane.ADMIN);
    String a = test + "-a";
    String b = test + "-b";
    String lease = "lease-" + test;

    List<String> pods = new ArrayList<>();
    SchedulerInstance first =
        SchedulerInstance.start(controlPlane, a, lease, "config-" + test, Map.of());
    try (SchedulerInstance second =
        SchedulerInstance.start(controlPlane, b, lease, "config-" + test, Map.of())) {
      await().atMost(Duration.ofSeconds(30)).until(first::isLeader);
      String standby = "http://127.0.0.1:" + second.port();
      assertThat(second.isLeader()).isFalse();

      HttpResponse<String> noPod = get(standby + "/api/v1/pending", admin, http);
      assertThat(noPod.statusCode()).isEqualTo(503);
      assertThat(noPod.body())
          .contains("the leader " + a + " is no pod of namespace default")
          .doesNotContain("waiting");

      pods.add(ReplicaPods.create(client, "default", a, first.port()));
      pods.add(ReplicaPods.create(client, "default", b, second.port()));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                HttpResponse<String> passed = get(standby + "/api/v1/pending", admin, http);
                assertThat(passed.statusCode()).as(passed.body()).isEqualTo(200);
                assertThat(passed.headers().firstValue(ANSWERED_BY)).hasValue(a);
                assertThat(passed.body()).contains("\"waiting\"");
              });

      // The page's way in, all through the standby: the session is made on the leader.
      HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
      JsonObject session = session(browser, standby);
      assertThat(session.get("signedIn").getAsBoolean()).isFalse();
      HttpResponse<String> signedIn =
          browser.send(
              HttpRequest.newBuilder(URI.create(standby + "/api/v1/session"))
                  .header("Content-Type", "application/json")
                  .header(
                      session.get("csrfHeader").getAsString(),
                      session.get("csrfToken").getAsString())
                  .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"" + admin + "\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(200);
      assertThat(signedIn.headers().allValues("Set-Cookie"))
          .anySatisfy(
              cookie ->
                  assertThat(cookie)
                      .startsWith("ARRANGER_VIEW_SESSION=")
                      .containsIgnoringCase("HttpOnly")
                      .containsIgnoringCase("SameSite=Strict"));
      HttpResponse<String> bySession = get(standby + "/api/v1/pending", null, browser);
      assertThat(bySession.statusCode()).as(bySession.body()).isEqualTo(200);
      assertThat(bySession.headers().firstValue(ANSWERED_BY)).hasValue(a);
      assertThat(bySession.body()).contains("\"waiting\"");

      first.close();
      await().atMost(Duration.ofSeconds(30)).until(second::isLeader);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                HttpResponse<String> itself = get(standby + "/api/v1/pending", admin, http);
                assertThat(itself.statusCode()).as(itself.body()).isEqualTo(200);
                assertThat(itself.headers().firstValue(ANSWERED_BY)).hasValue(b);
                assertThat(itself.body()).contains("\"waiting\"");
              });
      assertThat(session(browser, standby).get("signedIn").getAsBoolean())
          .as("the session lived on the old leader")
          .isFalse();
      assertThat(get(standby + "/api/v1/pending", null, browser).statusCode()).isEqualTo(401);
    } finally {
      first.close();
      for (String pod : pods) {
        new CoreV1Api(client).deleteNamespacedPod(pod, "default").execute();
      }
    }
  }

  private static JsonObject session(HttpClient browser, String base) throws Exception {
    HttpResponse<String> answer = get(base + "/api/v1/session", null, browser);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JsonParser.parseString(answer.body()).getAsJsonObject();
  }

  private static HttpResponse<String> get(String url, String token, HttpClient client)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
