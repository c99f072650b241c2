package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart in its namespaced mode on a real API server with RBAC enforced: the chart's Roles,
 * ClusterRoles and bindings are created as rendered with {@code watchNamespaces}, and both services
 * run from their jars as identities that have exactly those rights (the chart's ServiceAccounts'
 * stand-ins). A TYJob in the watched namespace runs to Succeeded; one in another namespace is left
 * alone. Both services' {@code /actuator/prometheus} then show histogram buckets for every latency,
 * client-go's work-queue and REST-client metrics, and every metric the chart's dashboard and alerts
 * query.
 */
@ExtendWith(KubeApiServerExtension.class)
class NamespacedChartEndToEndIT {

  private static final String RELEASE = "nsmode";
  private static final String SYSTEM = "nsmode-system";
  private static final String WATCHED = "nsmode-team";
  private static final String OTHER = "nsmode-other";
  private static final String SCHEDULER_USER = "arranger-scheduler-namespaced";
  private static final String CONTROLLER_USER = "arranger-controller-namespaced";
  private static final String NODE_LABEL = "arranger-nsmode";
  private static final Pattern METRIC =
      Pattern.compile("\\b(arranger_[a-z0-9_]+|workqueue_[a-z0-9_]+|rest_client_[a-z0-9_]+)\\b");

  /** Registered on first occurrence only: a reconcile that crashed. */
  private static final Set<String> ONLY_ON_INCIDENT =
      Set.of("arranger_controller_reconcile_crashes_total");

  @Test
  void aJobInAWatchedNamespaceSucceedsUnderTheNamespacedRolesAndTheMetricsHaveBuckets(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    Path root = Path.of(System.getProperty("arranger.projectRoot"));
    Path work = Files.createTempDirectory("arranger-nsmode-");
    CoreV1Api core = new CoreV1Api(admin);
    for (String namespace : List.of(SYSTEM, WATCHED, OTHER)) {
      core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
          .execute();
    }
    List<String> rbac =
        ChartRbac.apply(
            admin,
            root,
            RELEASE,
            SYSTEM,
            Map.of("scheduler", SCHEDULER_USER, "controller", CONTROLLER_USER),
            List.of("--set", "watchNamespaces={" + WATCHED + "}"));
    assertThat(rbac)
        .contains(
            "Role/" + RELEASE + "-arranger-controller-jobs",
            "Role/" + RELEASE + "-arranger-scheduler-jobs")
        .doesNotContain("ClusterRole/" + RELEASE + "-arranger-controller");

    ApiClient controllerIdentity = controlPlane.client(CONTROLLER_USER);
    ApiClient schedulerIdentity = controlPlane.client(SCHEDULER_USER);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> allowed(controllerIdentity, "create", "", "pods", "", WATCHED));
    assertThat(allowed(controllerIdentity, "create", "", "pods", "", OTHER))
        .as("controller creates pods elsewhere")
        .isFalse();
    assertThat(allowed(controllerIdentity, "list", "", "pods", "", null))
        .as("controller lists pods cluster-wide")
        .isFalse();
    assertThat(allowed(controllerIdentity, "list", ArrangerResources.GROUP, "tyjobs", "", OTHER))
        .isFalse();
    assertThat(
            allowed(
                schedulerIdentity, "patch", ArrangerResources.GROUP, "tyjobs", "status", WATCHED))
        .isTrue();
    assertThat(
            allowed(schedulerIdentity, "patch", ArrangerResources.GROUP, "tyjobs", "status", OTHER))
        .isFalse();
    assertThat(allowed(schedulerIdentity, "list", ArrangerResources.GROUP, "tyjobs", "", null))
        .isFalse();
    assertThat(allowed(schedulerIdentity, "list", "", "nodes", "", null)).isTrue();

    for (int i = 0; i < 2; i++) {
      nodes.register(
          NodeSpec.named("nsmode-node-" + i)
              .cpu("8")
              .memory("32Gi")
              .pods(110)
              .label(SimulatedNodeAgent.SIMULATED_LABEL, "true")
              .label(NODE_LABEL, "true")
              .build());
    }
    ApiClient watchClient = controlPlane.adminClient();
    watchClient.setReadTimeout(0);
    try (SimulatedNodeAgent agent =
            new SimulatedNodeAgent(
                    watchClient,
                    admin,
                    new SimulatedNodeAgent.Timing(Duration.ofMillis(300), Duration.ofSeconds(3)))
                .start();
        ServiceProcess scheduler = service(controlPlane, root, work, "scheduler", SCHEDULER_USER);
        ServiceProcess controller =
            service(controlPlane, root, work, "controller", CONTROLLER_USER)) {
      scheduler.awaitReady(Duration.ofSeconds(90));
      controller.awaitReady(Duration.ofSeconds(90));

      TYJobBuilder.named("watched")
          .namespace(WATCHED)
          .leader("learner", "1", "1Gi")
          .workers("actor", 2, "1", "1Gi")
          .nodeSelector(NODE_LABEL, "true")
          .create(admin);
      TYJobBuilder.named("ignored")
          .namespace(OTHER)
          .leader("learner", "1", "1Gi")
          .workers("actor", 1, "1", "1Gi")
          .nodeSelector(NODE_LABEL, "true")
          .create(admin);
      // The per-queue gauges have rows only while the queue has live jobs: read them while it does.
      String whileRunning =
          await()
              .atMost(Duration.ofMinutes(1))
              .pollInterval(Duration.ofMillis(200))
              .until(
                  () -> scrape(scheduler),
                  text ->
                      text.contains("arranger_scheduler_pending_job_age_max_seconds{")
                          && text.contains("arranger_scheduler_queue_deserved{"));

      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(() -> assertThat(stage(admin, WATCHED, "watched")).isEqualTo("Succeeded"));
      V1alpha1TYJob ignored =
          ArrangerResources.tyJobs(admin).get(OTHER, "ignored").throwsApiException().getObject();
      assertThat(ignored.getStatus())
          .as("a job outside the watched namespaces is neither scheduled nor reconciled")
          .satisfies(
              status -> assertThat(status.getObservedGeneration()).isNull(),
              status -> assertThat(status.getScheduleState()).isNull());
      assertThat(core.listNamespacedPod(OTHER).execute().getItems()).isEmpty();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(core.listNamespacedPod(WATCHED).execute().getItems())
                      .as("the finished job's pods, deleted under the namespaced Role")
                      .isEmpty());
      assertThat(scheduler.logTail()).doesNotContain("forbidden");
      assertThat(controller.logTail()).doesNotContain("forbidden");

      String schedulerMetrics = scrape(scheduler);
      String controllerMetrics = scrape(controller);
      assertThat(schedulerMetrics)
          .contains(
              "arranger_scheduler_e2e_scheduling_duration_seconds_bucket{",
              "arranger_scheduler_cycle_duration_seconds_bucket{",
              "arranger_scheduler_action_scheduling_duration_seconds_bucket{action=\"allocate\"",
              "arranger_scheduler_plugin_scheduling_duration_seconds_bucket{",
              "arranger_scheduler_job_scheduling_duration_seconds_bucket{",
              "rest_client_requests_total{code=\"200\"",
              "rest_client_request_duration_seconds_bucket{resource=\"tyjobs/status\",verb=\"PATCH\"");
      assertThat(schedulerMetrics)
          .contains("arranger_scheduler_job_scheduling_duration_seconds_count 1");
      assertThat(controllerMetrics)
          .contains(
              "arranger_controller_reconcile_duration_seconds_bucket{",
              "arranger_controller_job_start_duration_seconds_bucket{",
              "workqueue_depth{name=\"tyjob\"}",
              "workqueue_adds_total{name=\"tyjob\"}",
              "workqueue_queue_duration_seconds_bucket{name=\"tyjob\"",
              "workqueue_work_duration_seconds_bucket{name=\"tyjob\"",
              "workqueue_retries_total{name=\"tyjob\"}",
              "workqueue_unfinished_work_seconds{name=\"tyjob\"}",
              "workqueue_longest_running_processor_seconds{name=\"tyjob\"}",
              "rest_client_request_duration_seconds_bucket{resource=\"pods\",verb=\"POST\"");
      assertThat(schedulerMetrics + controllerMetrics)
          .as("latencies are histograms, not client-side percentiles")
          .doesNotContain("quantile=");

      Set<String> exposed = new TreeSet<>();
      exposed.addAll(names(whileRunning));
      exposed.addAll(names(schedulerMetrics));
      exposed.addAll(names(controllerMetrics));
      Set<String> queried = new TreeSet<>();
      queried.addAll(
          referenced(Files.readString(root.resolve("charts/arranger/dashboards/arranger.json"))));
      queried.addAll(
          referenced(
              Files.readString(root.resolve("charts/arranger/templates/prometheus-rule.yaml"))));
      queried.removeAll(ONLY_ON_INCIDENT);
      assertThat(queried).hasSizeGreaterThan(20);
      assertThat(exposed)
          .as("what the dashboard and alerts query is what the services expose")
          .containsAll(queried);
    }
  }

  private static ServiceProcess service(
      ControlPlane controlPlane, Path root, Path work, String service, String user) {
    Path kubeconfig = controlPlane.writeKubeconfig(work.resolve(service + ".kubeconfig"), user);
    Path jar = Path.of(System.getProperty("arranger." + service + "Jar"));
    return ServiceProcess.start(
        service,
        jar,
        work,
        Map.of(
            "arranger.kubernetes.kubeconfig",
            kubeconfig.toString(),
            "arranger.kubernetes.readiness-period",
            "1s",
            "arranger.watch.namespaces",
            WATCHED,
            "arranger.leader-election.lease-namespace",
            SYSTEM,
            "arranger.scheduler.config-map.namespace",
            SYSTEM,
            "arranger.scheduler.period",
            "500ms"),
        List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
  }

  private static boolean allowed(
      ApiClient identity,
      String verb,
      String group,
      String resource,
      String subresource,
      String namespace)
      throws ApiException {
    V1SelfSubjectAccessReview review =
        new V1SelfSubjectAccessReview()
            .spec(
                new V1SelfSubjectAccessReviewSpec()
                    .resourceAttributes(
                        new V1ResourceAttributes()
                            .verb(verb)
                            .group(group)
                            .resource(resource)
                            .subresource(subresource.isEmpty() ? null : subresource)
                            .namespace(namespace)));
    return Boolean.TRUE.equals(
        new AuthorizationV1Api(identity)
            .createSelfSubjectAccessReview(review)
            .execute()
            .getStatus()
            .getAllowed());
  }

  private static String stage(ApiClient client, String namespace, String name) throws ApiException {
    V1alpha1TYJob job =
        ArrangerResources.tyJobs(client).get(namespace, name).throwsApiException().getObject();
    return job.getStatus() == null || job.getStatus().getStage() == null
        ? ""
        : job.getStatus().getStage().getValue();
  }

  private static String scrape(ServiceProcess service) {
    var response = service.get("/actuator/prometheus");
    assertThat(response.statusCode()).as(service.name() + " /actuator/prometheus").isEqualTo(200);
    return response.body();
  }

  /** Sample names of a Prometheus text exposition. */
  private static Set<String> names(String exposition) {
    return exposition
        .lines()
        .filter(line -> !line.startsWith("#") && !line.isBlank())
        .map(line -> line.split("[{ ]", 2)[0])
        .collect(Collectors.toSet());
  }

  private static Set<String> referenced(String text) {
    Set<String> names = new TreeSet<>();
    Matcher matcher = METRIC.matcher(text);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}
