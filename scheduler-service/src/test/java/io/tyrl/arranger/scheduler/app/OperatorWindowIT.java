package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.replay.CycleInput;
import io.tyrl.arranger.scheduler.replay.CycleInputJson;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
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
 * The operator's window on the real API server: the pending-jobs API lists a queue's waiting jobs
 * in the order the next cycle serves them, with the words of their status; a tenant's
 * service-account token sees its namespace's jobs and nothing it may not list; no token or a
 * refused one gets 401 and no data; the page's sign-in sets an HttpOnly, SameSite=Strict session
 * and refuses a POST without the session's CSRF token. The cycle's input, dumped, replays to the
 * decisions the live cycle made.
 */
@ExtendWith(KubeApiServerExtension.class)
class OperatorWindowIT {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void pendingJobsInTheNextCyclesOrderSeenOnlyWhereTheTokenMayListThem(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("window");
    String tenant = ClusterFixtures.namespace(client, "window-a");
    String other = ClusterFixtures.namespace(client, "window-b");
    String queue = test;
    createQueue(client, queue);
    // Room for one 4-cpu job at a time.
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("4")
            .memory("16Gi")
            .label("arranger-test", test)
            .build());
    job("high", tenant, queue, test, 9).create(client);
    job("seven", other, queue, test, 7).create(client);
    job("middle", other, queue, test, 5).create(client);
    job("low", tenant, queue, test, 1).create(client);
    String tenantToken = tenantToken(client, tenant);
    String admin = controlPlane.token(ControlPlane.ADMIN);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      String base = "http://127.0.0.1:" + scheduler.port();
      String pending = base + "/api/v1/pending?queue=" + queue;

      // The highest priority is placed; the others wait in priority order.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () ->
                  assertThat(names(jobs(get(pending, admin))))
                      .containsExactly("seven", "middle", "low"));
      JsonArray waiting = jobs(get(pending, admin));
      assertThat(positions(waiting)).containsExactly(1, 2, 3);
      for (JsonElement element : waiting) {
        JsonObject job = element.getAsJsonObject();
        String namespace = job.get("namespace").getAsString();
        String name = job.get("name").getAsString();
        await()
            .atMost(Duration.ofSeconds(20))
            .untilAsserted(
                () -> {
                  var scheduling = tyjob(client, namespace, name).getStatus().getScheduling();
                  assertThat(job.get("reason").getAsString())
                      .as("the reason %s's status carries", name)
                      .isEqualTo(scheduling.getReason());
                  assertThat(job.get("message").getAsString()).isEqualTo(scheduling.getMessage());
                });
        assertThat(job.get("queue").getAsString()).isEqualTo(queue);
        assertThat(job.get("waitedSeconds").getAsLong()).isGreaterThanOrEqualTo(0);
      }

      // The tenant sees its own waiting job, at its place in the whole queue, and no other.
      HttpResponse<String> mine = get(pending, tenantToken);
      assertThat(mine.statusCode()).isEqualTo(200);
      assertThat(names(jobs(mine))).containsExactly("low");
      assertThat(positions(jobs(mine))).containsExactly(3);
      assertThat(mine.body()).doesNotContain(other);
      assertThat(get(base + "/api/v1/pending?namespace=" + other, tenantToken).statusCode())
          .isEqualTo(403);
      assertThat(get(base + "/api/v1/queues", tenantToken).statusCode()).isEqualTo(403);
      assertThat(get(base + "/api/v1/nodes", tenantToken).statusCode()).isEqualTo(403);
      assertThat(get(base + "/api/v1/queues", admin).body()).contains("\"" + queue + "\"");
      assertThat(get(base + "/api/v1/pending?queue=" + test + "-nowhere", admin))
          .satisfies(answer -> assertThat(answer.statusCode()).isEqualTo(404))
          .satisfies(answer -> assertThat(answer.body()).contains("queue: no queue named"));

      // No token, or one the API server refuses: 401 and no data.
      for (String path : List.of("/api/v1/pending", "/api/v1/queues", "/api/v1/nodes")) {
        HttpResponse<String> none = get(base + path, null);
        assertThat(none.statusCode()).as(path).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate"))
            .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        assertThat(none.body()).doesNotContain("seven", "middle", "low");
        HttpResponse<String> refused = get(base + path, "not-a-token");
        assertThat(refused.statusCode()).as(path).isEqualTo(401);
        assertThat(refused.body()).doesNotContain("seven", "middle", "low");
      }

      // The next cycle serves the queue in that order: room for one more goes to position 1.
      new CustomObjectsApi(client)
          .deleteNamespacedCustomObject(
              ArrangerResources.GROUP,
              ArrangerResources.VERSION,
              tenant,
              ArrangerResources.TYJOBS,
              "high")
          .execute();
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () -> assertThat(names(jobs(get(pending, admin)))).containsExactly("middle", "low"));
      assertThat(tyjob(client, other, "seven").getStatus().getAllocations()).hasSize(2);
      assertThat(positions(jobs(get(pending, admin)))).containsExactly(1, 2);

      signInThroughTheSession(base, tenantToken);
    }
  }

  /**
   * The cycle's input dumped by the live scheduler, run again through the core with the
   * configuration it names, decides exactly what the live cycle decided; only someone who may list
   * everything it holds may have it.
   */
  @Test
  void theDumpedCycleReplaysToTheSameDecisions(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("dump");
    String tenant = ClusterFixtures.namespace(client, "dump");
    String queue = test;
    createQueue(client, queue);
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("4")
            .memory("16Gi")
            .label("arranger-test", test)
            .build());
    job("first", tenant, queue, test, 5).create(client);
    job("second", tenant, queue, test, 3).create(client);
    String tenantToken = tenantToken(client, tenant);
    String admin = controlPlane.token(ControlPlane.ADMIN);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane,
            "scheduler-" + test,
            "lease-" + test,
            "config-" + test,
            Map.of(
                "arranger.scheduler.configuration",
                DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML))) {
      String base = "http://127.0.0.1:" + scheduler.port();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () ->
                  assertThat(names(jobs(get(base + "/api/v1/pending?queue=" + queue, admin))))
                      .containsExactly("second"));

      HttpResponse<String> dump = get(base + "/api/v1/cycle-input", admin);
      assertThat(dump.statusCode()).isEqualTo(200);
      assertThat(dump.headers().firstValue("Content-Disposition"))
          .hasValueSatisfying(value -> assertThat(value).startsWith("attachment"));
      CycleInput input = CycleInputJson.read(dump.body());
      assertThat(input.configuration())
          .isEqualTo(DefaultSchedulerConfiguration.WITH_PREEMPTION_YAML);
      assertThat(input.decisions()).containsKeys(tenant + "/first", tenant + "/second");
      Scheduler core =
          new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
      CycleResult replayed =
          core.runCycle(
              input.snapshot(),
              new SchedulerConfigurationParser(core.vocabulary()).parse(input.configuration()),
              input.time());
      assertThat(replayed.decisions()).isEqualTo(input.decisions());

      assertThat(get(base + "/api/v1/cycle-input", tenantToken).statusCode())
          .as("a tenant may not list everything the input holds")
          .isEqualTo(403);
      assertThat(get(base + "/api/v1/cycle-input", null).statusCode()).isEqualTo(401);
    }
  }

  /** The page's way in: a session cookie made by sign-in, and a CSRF token for every POST. */
  private void signInThroughTheSession(String base, String token) throws Exception {
    HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    HttpResponse<String> first =
        browser.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/session")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(first.statusCode()).isEqualTo(200);
    JsonObject anonymous = JsonParser.parseString(first.body()).getAsJsonObject();
    assertThat(anonymous.get("signedIn").getAsBoolean()).isFalse();
    String body = "{\"token\":\"" + token + "\"}";

    HttpResponse<String> withoutCsrf = browser.send(post(base, body, null, null), ofString());
    assertThat(withoutCsrf.statusCode()).as("a POST without the CSRF token").isEqualTo(403);

    HttpResponse<String> noTokenGiven =
        browser.send(
            post(
                base,
                "{}",
                anonymous.get("csrfHeader").getAsString(),
                anonymous.get("csrfToken").getAsString()),
            ofString());
    assertThat(noTokenGiven.statusCode()).isEqualTo(400);
    assertThat(noTokenGiven.body()).contains("token: a Kubernetes bearer token is required");

    HttpResponse<String> signedIn =
        browser.send(
            post(
                base,
                body,
                anonymous.get("csrfHeader").getAsString(),
                anonymous.get("csrfToken").getAsString()),
            ofString());
    assertThat(signedIn.statusCode()).isEqualTo(200);
    assertThat(
            JsonParser.parseString(signedIn.body()).getAsJsonObject().get("username").getAsString())
        .startsWith("system:serviceaccount:");
    assertThat(signedIn.body()).doesNotContain(token);
    List<String> cookies = signedIn.headers().allValues("Set-Cookie");
    assertThat(cookies)
        .anySatisfy(
            cookie ->
                assertThat(cookie)
                    .startsWith("ARRANGER_VIEW_SESSION=")
                    .containsIgnoringCase("HttpOnly")
                    .containsIgnoringCase("SameSite=Strict"));
    HttpResponse<String> pending =
        browser.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/pending")).build(), ofString());
    assertThat(pending.statusCode()).isEqualTo(200);
    assertThat(names(jobs(pending))).containsExactly("low");

    HttpResponse<String> badToken =
        HttpClient.newBuilder()
            .cookieHandler(new CookieManager())
            .build()
            .send(HttpRequest.newBuilder(URI.create(base + "/api/v1/session")).build(), ofString());
    JsonObject fresh = JsonParser.parseString(badToken.body()).getAsJsonObject();
    assertThat(fresh.get("signedIn").getAsBoolean()).isFalse();
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }

  private static HttpRequest post(String base, String body, String header, String csrf) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + "/api/v1/session"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (header != null) {
      request.header(header, csrf);
    }
    return request.build();
  }

  private HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonArray jobs(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JsonParser.parseString(response.body()).getAsJsonObject().getAsJsonArray("jobs");
  }

  private static List<String> names(JsonArray jobs) {
    List<String> names = new ArrayList<>();
    jobs.forEach(job -> names.add(job.getAsJsonObject().get("name").getAsString()));
    return names;
  }

  private static List<Integer> positions(JsonArray jobs) {
    List<Integer> positions = new ArrayList<>();
    jobs.forEach(job -> positions.add(job.getAsJsonObject().get("position").getAsInt()));
    return positions;
  }

  /**
   * A ServiceAccount of the namespace, allowed to list its TYJobs and nothing else, and a token for
   * it from the TokenRequest API — what {@code kubectl create token} gives.
   */
  private static String tenantToken(ApiClient client, String namespace) throws Exception {
    new CoreV1Api(client)
        .createNamespacedServiceAccount(
            namespace, new V1ServiceAccount().metadata(new V1ObjectMeta().name("viewer")))
        .execute();
    RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client);
    rbac.createNamespacedRole(
            namespace,
            new V1Role()
                .metadata(new V1ObjectMeta().name("tyjob-reader"))
                .rules(
                    List.of(
                        new V1PolicyRule()
                            .apiGroups(List.of(ArrangerResources.GROUP))
                            .resources(List.of(ArrangerResources.TYJOBS))
                            .verbs(List.of("get", "list", "watch")))))
        .execute();
    rbac.createNamespacedRoleBinding(
            namespace,
            new V1RoleBinding()
                .metadata(new V1ObjectMeta().name("viewer-reads-tyjobs"))
                .roleRef(
                    new V1RoleRef()
                        .apiGroup("rbac.authorization.k8s.io")
                        .kind("Role")
                        .name("tyjob-reader"))
                .subjects(
                    List.of(
                        new RbacV1Subject()
                            .kind("ServiceAccount")
                            .name("viewer")
                            .namespace(namespace))))
        .execute();
    return new CoreV1Api(client)
        .createNamespacedServiceAccountToken(
            "viewer",
            namespace,
            new AuthenticationV1TokenRequest()
                .spec(new V1TokenRequestSpec().audiences(List.of()).expirationSeconds(3600L)))
        .execute()
        .getStatus()
        .getToken();
  }

  private static void createQueue(ApiClient client, String queue) throws Exception {
    new CustomObjectsApi(client)
        .createClusterCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.QUEUES,
            Map.of(
                "apiVersion",
                ArrangerResources.API_VERSION,
                "kind",
                ArrangerResources.QUEUE_KIND,
                "metadata",
                Map.of("name", queue)))
        .execute();
  }

  private static TYJobBuilder job(
      String name, String namespace, String queue, String test, int priority) {
    return TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", "2", "512Mi")
        .workers("actor", 1, "2", "512Mi")
        .nodeSelector("arranger-test", test)
        .set("queue", queue)
        .set("priority", priority);
  }

  private static V1alpha1TYJob tyjob(ApiClient client, String namespace, String name)
      throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(job -> job.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
