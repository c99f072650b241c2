package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.HeadlessBrowser;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.ReplicaPods;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's window in a real browser (Debian's Chromium, headless) with both services running
 * from their jars under the chart's RBAC, their pods run by a simulated kubelet, and two scheduler
 * replicas of which the browser reaches the standby (the leader answers through it): sign in with a
 * service-account token, see the queue tree, a waiting job's reason as its status says it, and
 * follow a preemption from the eviction to the preemptor's pods running; a tenant's token sees its
 * namespace's jobs only and is refused the queues and nodes; a name carrying markup is shown as
 * text; no token gets 401. The screenshots it takes are the ones docs/ui.md shows.
 */
@ExtendWith(KubeApiServerExtension.class)
class OperatorWindowEndToEndIT {

  private static final Path SCREENSHOTS =
      Path.of(System.getProperty("arranger.projectRoot")).resolve("docs/ui");
  private static final String MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)>";
  private static final String TEST = "ui";
  private static final String RESEARCH = "ui-research";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  @Test
  void signInSeeTheTreeAWaitingJobsReasonAndFollowAPreemptionAsText(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    E2eServices cluster = E2eServices.prepare(controlPlane, client, nodes, TEST, RESEARCH, 2);
    String vision = "ui-vision";
    new CoreV1Api(client)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(vision)))
        .execute();
    String lab = TEST + "-lab";
    String rl = TEST + "-rl";
    String cv = TEST + "-cv";
    createQueue(client, lab, Map.of("guarantee", Map.of("cpu", "12")));
    createQueue(client, rl, Map.of("parent", lab, "guarantee", Map.of("cpu", "8")));
    createQueue(client, cv, Map.of("parent", lab, "guarantee", Map.of("cpu", "4")));
    String operator = token(client, RESEARCH, "operator", null);
    String tenant = token(client, vision, "tenant", vision);

    try (E2eServices.Running services =
        cluster.startWithPreemption(2, Duration.ofMinutes(30), LEASE_DURATION, RETRY_PERIOD)) {
      ReplicaSet scheduler = services.scheduler();
      ReplicaSet controller = services.controller();
      // Two scheduler replicas with their pods, as the chart runs them: everything below goes to
      // the standby, as a Service may send it, and the leader answers.
      for (ServiceProcess replica : scheduler.replicas()) {
        ReplicaPods.create(client, cluster.systemNamespace(), replica.name(), replica.port());
      }
      String leader =
          await()
              .atMost(Duration.ofSeconds(60))
              .until(scheduler::holder, Optional::isPresent)
              .get();
      ServiceProcess standby =
          scheduler.replicas().stream()
              .filter(replica -> !replica.name().equals(leader))
              .findFirst()
              .orElseThrow();
      String base = "http://127.0.0.1:" + standby.port();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                HttpResponse<String> answer = get(base + "/api/v1/queues", operator);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                assertThat(answer.headers().firstValue("X-Arranger-Replica")).hasValue(leader);
              });
      // A low-priority job with elastic workers fills both 8-cpu nodes; a high-priority gang of
      // its queue preempts the workers above its minimum.
      job("ppo-sweep", RESEARCH, rl, 2, 7, 3).create(client);
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () ->
                  assertThat(stage(client, RESEARCH, "ppo-sweep"))
                      .as(api(base + "/api/v1/pending", operator))
                      .isEqualTo("Running"));
      assertThat(allocations(client, RESEARCH, "ppo-sweep")).isEqualTo(8);
      job("ppo-final", RESEARCH, rl, 9, 3, 3).create(client);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> api(base + "/api/v1/evictions", operator).contains("ppo-sweep"));
      // The preemption followed through: the controller made the preemptor's pods and they run.
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () ->
                  assertThat(stage(client, RESEARCH, "ppo-final"))
                      .as(api(base + "/api/v1/pending", operator))
                      .isEqualTo("Running"));
      // A job of another team that asks for nodes there are none of: it waits, with a reason.
      job("resnet", vision, cv, 5, 1, 1)
          .nodeSelector(E2eServices.NODE_LABEL, TEST + "-gpu")
          .create(client);
      await().atMost(Duration.ofSeconds(60)).until(() -> reason(client, vision, "resnet") != null);
      assertThat(stage(client, vision, "resnet"))
          .as("the controller shows the waiting job as Pending")
          .isEqualTo("Pending");

      try (HeadlessBrowser browser = HeadlessBrowser.open(base + "/")) {
        awaitState(browser, "signed-out");
        browser.screenshot(SCREENSHOTS.resolve("sign-in.png"));

        signIn(browser, operator);
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> {
                  assertThat(text(browser, "#pending tr[data-job='" + vision + "/resnet'] .reason"))
                      .isEqualTo(reason(client, vision, "resnet"));
                  assertThat(text(browser, "#evictions tbody")).contains(RESEARCH + "/ppo-sweep");
                });
        assertThat(text(browser, "#pending tr[data-job='" + vision + "/resnet'] .message"))
            .isEqualTo(tyjob(client, vision, "resnet").getStatus().getScheduling().getMessage());
        assertThat(text(browser, "#pending tr[data-job='" + vision + "/resnet'] .stage"))
            .isEqualTo("Pending");
        assertThat(count(browser, "#queues .queue[data-queue^='" + TEST + "-']"))
            .as("the lab and its two teams")
            .isEqualTo(3);
        assertThat(text(browser, "#queues .queue[data-queue='" + cv + "'] .name"))
            .as("indented under the lab")
            .startsWith("\u2003" + cv);
        assertThat(text(browser, "#evictions tbody"))
            .contains(RESEARCH + "/ppo-final", "Preempted");
        assertThat(text(browser, "#nodes"))
            .contains(TEST + "-node-0", TEST + "-node-1", RESEARCH + "/ppo-final");
        for (String node : List.of(TEST + "-node-0", TEST + "-node-1")) {
          assertThat(text(browser, "#nodes .node[data-node='" + node + "']"))
              .as("four 2-cpu pods fill %s, and each counts against its pods", node)
              .contains("cpu8 / 8")
              .contains("pods4 / 110");
        }
        browser.screenshot(SCREENSHOTS.resolve("overview.png"));

        // A name with markup goes through the page's own rendering and stays text.
        browser.evaluate(
            "renderPending({status: 200, body: {jobs: [{namespace: 'team', name: "
                + JsonParser.parseString("\"" + MARKUP.replace("\"", "\\\"") + "\"")
                + ", queue: 'q', position: 1, stage: 'Pending', reason: 'Unschedulable',"
                + " message: "
                + JsonParser.parseString("\"" + MARKUP + "\"")
                + ", waitedSeconds: 5}]}})");
        assertThat(text(browser, "#pending td.job")).isEqualTo("team/" + MARKUP);
        assertThat(text(browser, "#pending td.message")).isEqualTo(MARKUP);
        assertThat(count(browser, "#pending script, #pending img")).isZero();
        browser.screenshot(SCREENSHOTS.resolve("markup-as-text.png"));

        // The tenant: its namespace's job, no queue tree, no nodes.
        browser.evaluate("signOut()");
        awaitState(browser, "signed-out");
        signIn(browser, tenant);
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> {
                  assertThat(text(browser, "#pending tbody")).contains(vision + "/resnet");
                  assertThat(text(browser, "#queues")).contains("may not list queues");
                });
        assertThat(text(browser, "#pending tbody")).doesNotContain(RESEARCH);
        assertThat(text(browser, "#evictions tbody")).doesNotContain(RESEARCH);
        assertThat(text(browser, "#nodes")).contains("may not list nodes");
        browser.screenshot(SCREENSHOTS.resolve("tenant.png"));

        assertThat(browser.dialogs()).as("no script ran from the data").isEmpty();
      }

      HttpResponse<String> noToken =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/api/v1/pending")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(noToken.statusCode()).isEqualTo(401);
      assertThat(scheduler.leader().orElseThrow().logTail()).doesNotContain("is forbidden");
      assertThat(standby.logTail())
          .as("the standby's reads of the Lease and pods")
          .doesNotContain("is forbidden");
      assertThat(controller.leader().orElseThrow().logTail()).doesNotContain("is forbidden");
    }
  }

  private static void signIn(HeadlessBrowser browser, String token) throws Exception {
    browser.evaluate(
        "document.getElementById('token').value = '"
            + token
            + "'; document.getElementById('sign-in-form').requestSubmit()");
    awaitState(browser, "ready");
  }

  private static void awaitState(HeadlessBrowser browser, String state) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        // The page may still be loading (no body yet) when the browser is first asked.
        .until(
            () ->
                browser
                    .evaluate("document.body ? document.body.dataset.state : null")
                    .equals("\"" + state + "\""));
  }

  private static String text(HeadlessBrowser browser, String selector) throws Exception {
    String json =
        browser.evaluate(
            "(document.querySelector(\""
                + selector.replace("\"", "\\\"")
                + "\") || {}).textContent");
    return json.equals("null") ? null : JsonParser.parseString(json).getAsString();
  }

  private static int count(HeadlessBrowser browser, String selector) throws Exception {
    return Integer.parseInt(
        browser.evaluate(
            "document.querySelectorAll(\"" + selector.replace("\"", "\\\"") + "\").length"));
  }

  private static String api(String url, String token) throws Exception {
    return get(url, token).body();
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A ServiceAccount's token from the TokenRequest API. With {@code onlyNamespace} null it may list
   * TYJobs, Queues and nodes everywhere (an operator); else only that namespace's TYJobs.
   */
  private static String token(ApiClient client, String namespace, String name, String onlyNamespace)
      throws Exception {
    new CoreV1Api(client)
        .createNamespacedServiceAccount(
            namespace, new V1ServiceAccount().metadata(new V1ObjectMeta().name(name)))
        .execute();
    RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(client);
    RbacV1Subject subject =
        new RbacV1Subject().kind("ServiceAccount").name(name).namespace(namespace);
    if (onlyNamespace == null) {
      String role = namespace + "-" + name;
      rbac.createClusterRole(
              new V1ClusterRole()
                  .metadata(new V1ObjectMeta().name(role))
                  .rules(
                      List.of(
                          new V1PolicyRule()
                              .apiGroups(List.of(ArrangerResources.GROUP))
                              .resources(
                                  List.of(ArrangerResources.TYJOBS, ArrangerResources.QUEUES))
                              .verbs(List.of("get", "list")),
                          new V1PolicyRule()
                              .apiGroups(List.of(""))
                              .resources(List.of("nodes"))
                              .verbs(List.of("get", "list")))))
          .execute();
      rbac.createClusterRoleBinding(
              new V1ClusterRoleBinding()
                  .metadata(new V1ObjectMeta().name(role))
                  .roleRef(
                      new V1RoleRef()
                          .apiGroup("rbac.authorization.k8s.io")
                          .kind("ClusterRole")
                          .name(role))
                  .subjects(List.of(subject)))
          .execute();
    } else {
      rbac.createNamespacedRole(
              onlyNamespace,
              new V1Role()
                  .metadata(new V1ObjectMeta().name(name))
                  .rules(
                      List.of(
                          new V1PolicyRule()
                              .apiGroups(List.of(ArrangerResources.GROUP))
                              .resources(List.of(ArrangerResources.TYJOBS))
                              .verbs(List.of("get", "list")))))
          .execute();
      rbac.createNamespacedRoleBinding(
              onlyNamespace,
              new V1RoleBinding()
                  .metadata(new V1ObjectMeta().name(name))
                  .roleRef(
                      new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(name))
                  .subjects(List.of(subject)))
          .execute();
    }
    return new CoreV1Api(client)
        .createNamespacedServiceAccountToken(
            name,
            namespace,
            new AuthenticationV1TokenRequest()
                .spec(new V1TokenRequestSpec().audiences(List.of()).expirationSeconds(3600L)))
        .execute()
        .getStatus()
        .getToken();
  }

  private static void createQueue(ApiClient client, String name, Map<String, Object> spec)
      throws Exception {
    Map<String, Object> queue = new LinkedHashMap<>();
    queue.put("apiVersion", ArrangerResources.API_VERSION);
    queue.put("kind", ArrangerResources.QUEUE_KIND);
    queue.put("metadata", Map.of("name", name));
    queue.put("spec", spec);
    new CustomObjectsApi(client)
        .createClusterCustomObject(
            ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, queue)
        .execute();
  }

  private static TYJobBuilder job(
      String name, String namespace, String queue, int priority, int workers, int minWorkers) {
    return TYJobBuilder.named(name)
        .namespace(namespace)
        .leader("learner", "2", "1Gi")
        .workers("actor", workers, "2", "1Gi")
        .nodeSelector(E2eServices.NODE_LABEL, TEST)
        .set("queue", queue)
        .set("priority", priority)
        .set("minWorkersNum", minWorkers);
  }

  private static V1alpha1TYJob tyjob(ApiClient client, String namespace, String name)
      throws Exception {
    return ArrangerResources.tyJobs(client).get(namespace, name).throwsApiException().getObject();
  }

  private static int allocations(ApiClient client, String namespace, String name) throws Exception {
    V1alpha1TYJob job = tyjob(client, namespace, name);
    return job.getStatus() == null || job.getStatus().getAllocations() == null
        ? 0
        : job.getStatus().getAllocations().size();
  }

  private static String reason(ApiClient client, String namespace, String name) throws Exception {
    V1alpha1TYJob job = tyjob(client, namespace, name);
    return job.getStatus() == null || job.getStatus().getScheduling() == null
        ? null
        : job.getStatus().getScheduling().getReason();
  }

  private static String stage(ApiClient client, String namespace, String name) throws Exception {
    V1alpha1TYJob job = tyjob(client, namespace, name);
    return job.getStatus() == null || job.getStatus().getStage() == null
        ? null
        : job.getStatus().getStage().getValue();
  }
}
