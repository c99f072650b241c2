package io.tyrl.arranger.testing.chart;

import static io.tyrl.arranger.testing.chart.Manifests.at;
import static io.tyrl.arranger.testing.chart.Manifests.kind;
import static io.tyrl.arranger.testing.chart.Manifests.name;
import static io.tyrl.arranger.testing.chart.Manifests.ofKind;
import static io.tyrl.arranger.testing.chart.Manifests.single;
import static io.tyrl.arranger.testing.chart.Manifests.string;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.VersionInfo;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.UpdateOptions;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.chart.ServiceRights.Access;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The Helm chart, checked with a real helm 3 (provisioned by scripts/helm.sh) and a real API
 * server: it lints strictly, renders, ships the shared CRDs unchanged, every rendered object is
 * accepted by the API server in a server-side dry run, and its RBAC gives each service what it
 * needs and no more.
 */
@ExtendWith(KubeApiServerExtension.class)
class HelmChartIT {

  private static final String RELEASE = "arranger";
  private static final String NAMESPACE = "arranger-system";
  private static final Set<String> COMPONENTS = Set.of("scheduler", "controller");

  @TempDir static Path helmHome;

  private static HelmCli helm;

  @BeforeAll
  static void provisionHelm() {
    helm = HelmCli.provision(helmHome);
  }

  @Test
  void helmIsAHelm3BinaryProvisionedByTheScript() {
    String version = helm.runOrFail("version", "--short").trim();

    assertThat(version).startsWith("v3.");
    assertThat(helm.binary())
        .endsWith(Path.of("helm", version.substring(1, version.indexOf('+')), "helm"));
  }

  @ParameterizedTest(name = "helm lint --strict {0}")
  @ValueSource(
      strings = {
        "",
        "serviceMonitor.enabled=true",
        "scheduler.configMap.create=false,scheduler.springProfilesActive=fair-share",
        "leaderElection.enabled=false,scheduler.replicaCount=1,controller.replicaCount=1",
        "grafanaDashboard.enabled=true,prometheusRule.enabled=true,rbac.aggregatedClusterRoles=false",
        "watchNamespaces={team-a,team-b},scheduler.policyProfile=preempt-reclaim"
      })
  void chartPassesStrictLint(String values) {
    List<String> arguments = new ArrayList<>(List.of("lint", "--strict", "charts/arranger"));
    if (!values.isEmpty()) {
      arguments.addAll(List.of("--set", values));
    }

    String output = helm.runOrFail(arguments.toArray(String[]::new));

    assertThat(output)
        .contains("1 chart(s) linted, 0 chart(s) failed")
        .doesNotContain("[WARNING]", "[ERROR]");
  }

  @Test
  void crdsAreTheSharedCrdModelsFilesThroughASymlink() throws IOException {
    Path crds = helm.chart().resolve("crds");
    Path shared = helm.projectRoot().resolve("shared-crd-model/src/main/crds");

    assertThat(Files.isSymbolicLink(crds)).as("charts/arranger/crds is a symlink").isTrue();
    assertThat(crds.toRealPath()).isEqualTo(shared.toRealPath());

    List<JsonObject> rendered =
        ofKind(render(List.of("--include-crds")), "CustomResourceDefinition");
    List<JsonObject> sources = new ArrayList<>();
    for (Path file : yamlFiles(shared)) {
      sources.addAll(Manifests.parse(Files.readString(file)));
    }
    assertThat(rendered)
        .as("CRDs rendered by helm template --include-crds")
        .hasSize(2)
        .containsExactlyInAnyOrderElementsOf(sources);
  }

  @Test
  void packagedChartCarriesTheCrdFilesByteForByte(@TempDir Path out) throws Exception {
    helm.runOrFail("package", "charts/arranger", "--destination", out.toString());
    Path archive;
    try (Stream<Path> files = Files.list(out)) {
      archive = files.filter(file -> file.toString().endsWith(".tgz")).findFirst().orElseThrow();
    }
    Path unpacked = Files.createDirectory(out.resolve("unpacked"));
    Process tar =
        new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue()).as(new String(tar.getInputStream().readAllBytes())).isZero();

    Path packagedCrds = unpacked.resolve("arranger/crds");
    Path shared = helm.projectRoot().resolve("shared-crd-model/src/main/crds");
    assertThat(Files.isSymbolicLink(packagedCrds))
        .as("the package holds files, not the link")
        .isFalse();
    List<Path> sources = yamlFiles(shared);
    assertThat(yamlFiles(packagedCrds))
        .extracting(path -> path.getFileName().toString())
        .containsExactlyElementsOf(
            sources.stream().map(path -> path.getFileName().toString()).toList());
    for (Path source : sources) {
      assertThat(Files.mismatch(packagedCrds.resolve(source.getFileName().toString()), source))
          .as("packaged %s differs from %s", source.getFileName(), source)
          .isEqualTo(-1L);
    }
  }

  @Test
  void defaultValuesRenderBothServicesWithoutAServiceMonitor() {
    List<JsonObject> objects = render(List.of());

    Map<String, Long> kinds =
        objects.stream()
            .collect(Collectors.groupingBy(Manifests::kind, TreeMap::new, Collectors.counting()));
    assertThat(kinds)
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of(
                    "ClusterRole",
                    5L,
                    "ClusterRoleBinding",
                    3L,
                    "ConfigMap",
                    1L,
                    "Deployment",
                    2L,
                    "PodDisruptionBudget",
                    2L,
                    "Role",
                    3L,
                    "RoleBinding",
                    3L,
                    "Service",
                    3L,
                    "ServiceAccount",
                    3L)));
    for (String component : COMPONENTS) {
      String name = RELEASE + "-" + component;
      JsonObject service = single(objects, "Service", name);
      assertThat(string(service, "spec", "ports", 0, "port")).isEqualTo("8081");
      assertThat(string(service, "spec", "ports", 0, "targetPort")).isEqualTo("management");
      assertThat(at(service, "spec", "selector"))
          .isEqualTo(podLabels(single(objects, "Deployment", name)));
      JsonObject budget = single(objects, "PodDisruptionBudget", name);
      assertThat(string(budget, "spec", "minAvailable")).isEqualTo("1");
      assertThat(at(budget, "spec", "selector", "matchLabels"))
          .isEqualTo(at(service, "spec", "selector"));
    }
  }

  /** The operator's window has a Service of its own, on the view's port, never the actuator's. */
  @Test
  void theSchedulersViewHasAServiceOfItsOwn() {
    List<JsonObject> objects =
        render(
            List.of(
                "--set", "scheduler.view.service.type=NodePort,scheduler.view.service.port=80"));
    JsonObject view = single(objects, "Service", RELEASE + "-scheduler-view");
    assertThat(string(view, "spec", "type")).isEqualTo("NodePort");
    assertThat(at(view, "spec", "ports").getAsJsonArray()).hasSize(1);
    assertThat(string(view, "spec", "ports", 0, "port")).isEqualTo("80");
    assertThat(string(view, "spec", "ports", 0, "targetPort")).isEqualTo("view");
    assertThat(at(view, "spec", "selector"))
        .isEqualTo(podLabels(single(objects, "Deployment", RELEASE + "-scheduler")));
  }

  @Test
  void serviceMonitorsScrapeEachServicesPrometheusEndpointWhenEnabled() {
    List<JsonObject> objects =
        render(List.of("--set", "serviceMonitor.enabled=true,serviceMonitor.labels.release=prom"));

    List<JsonObject> monitors = ofKind(objects, "ServiceMonitor");
    assertThat(monitors)
        .extracting(Manifests::name)
        .containsExactlyInAnyOrder(RELEASE + "-scheduler", RELEASE + "-controller");
    for (JsonObject monitor : monitors) {
      assertThat(Manifests.apiVersion(monitor)).isEqualTo("monitoring.coreos.com/v1");
      assertThat(string(monitor, "metadata", "labels", "release")).isEqualTo("prom");
      assertThat(string(monitor, "spec", "endpoints", 0, "port")).isEqualTo("management");
      assertThat(string(monitor, "spec", "endpoints", 0, "honorLabels")).isEqualTo("true");
      assertThat(string(monitor, "spec", "endpoints", 0, "path")).isEqualTo("/actuator/prometheus");
      JsonObject service = single(objects, "Service", name(monitor));
      assertThat(at(monitor, "spec", "selector", "matchLabels"))
          .isEqualTo(at(service, "spec", "selector"));
      assertThat(string(monitor, "spec", "namespaceSelector", "matchNames", 0))
          .isEqualTo(NAMESPACE);
    }
  }

  @Test
  void deploymentsRunNonRootOnAReadOnlyRootWithActuatorProbes() throws IOException {
    List<JsonObject> objects = render(List.of());
    String appVersion =
        string(
            Manifests.parse(Files.readString(helm.chart().resolve("Chart.yaml"))).get(0),
            "appVersion");

    for (String component : COMPONENTS) {
      JsonObject deployment = single(objects, "Deployment", RELEASE + "-" + component);
      JsonElement pod = at(deployment, "spec", "template", "spec");
      JsonElement container = at(pod, "containers", 0);
      assertThat(string(deployment, "spec", "replicas")).isEqualTo("2");
      assertThat(string(pod, "serviceAccountName")).isEqualTo(RELEASE + "-" + component);
      assertThat(string(container, "image")).isEqualTo(component + "-service:" + appVersion);
      assertThat(at(container, "ports").getAsJsonArray())
          .as("the actuator's port, and the scheduler's view's")
          .hasSize(component.equals("scheduler") ? 2 : 1);
      assertThat(string(container, "ports", 0, "containerPort")).isEqualTo("8081");
      assertThat(string(container, "ports", 0, "name")).isEqualTo("management");
      if (component.equals("scheduler")) {
        assertThat(string(container, "ports", 1, "containerPort")).isEqualTo("8080");
        assertThat(string(container, "ports", 1, "name")).isEqualTo("view");
      }
      assertThat(string(container, "livenessProbe", "httpGet", "path"))
          .isEqualTo("/actuator/health/liveness");
      assertThat(string(container, "readinessProbe", "httpGet", "path"))
          .isEqualTo("/actuator/health/readiness");
      assertThat(string(container, "startupProbe", "httpGet", "path"))
          .isEqualTo("/actuator/health/liveness");
      assertThat(string(container, "livenessProbe", "httpGet", "port")).isEqualTo("management");
      assertThat(string(container, "readinessProbe", "httpGet", "port")).isEqualTo("management");
      assertThat(at(container, "resources", "requests")).isNotNull();

      assertThat(string(pod, "securityContext", "runAsNonRoot")).isEqualTo("true");
      assertThat(string(pod, "securityContext", "seccompProfile", "type"))
          .isEqualTo("RuntimeDefault");
      assertThat(string(container, "securityContext", "runAsNonRoot")).isEqualTo("true");
      assertThat(string(container, "securityContext", "readOnlyRootFilesystem")).isEqualTo("true");
      assertThat(string(container, "securityContext", "allowPrivilegeEscalation"))
          .isEqualTo("false");
      assertThat(at(container, "securityContext", "capabilities", "drop").getAsJsonArray())
          .extracting(JsonElement::getAsString)
          .containsExactly("ALL");
      assertThat(string(container, "securityContext", "seccompProfile", "type"))
          .isEqualTo("RuntimeDefault");
      assertThat(string(container, "volumeMounts", 0, "mountPath")).isEqualTo("/tmp");
      String tmpVolume = string(container, "volumeMounts", 0, "name");
      assertThat(at(pod, "volumes").getAsJsonArray().asList())
          .anySatisfy(
              volume -> {
                assertThat(string(volume, "name")).isEqualTo(tmpVolume);
                assertThat(at(volume, "emptyDir")).isNotNull();
              });
    }
  }

  /**
   * The container environment must reach the properties the services read, through Spring's relaxed
   * binding of environment variables: a misspelt variable name is not an error anywhere else, the
   * service would just run with its default (a Lease or ConfigMap the chart's RBAC does not cover).
   */
  @Test
  void environmentBindsToTheServicesSpringProperties() {
    List<JsonObject> objects =
        render(
            List.of(
                "--set",
                "scheduler.springProfilesActive=fair-share,scheduler.period=2s,scheduler.minCycleInterval=250ms,"
                    + "scheduler.cycleOnChange=false,controller.workers=8"));

    Binder scheduler =
        binderFor(
            single(objects, "Deployment", RELEASE + "-scheduler"), "arranger-scheduler-7d9f-x2k4q");
    assertThat(bound(scheduler, "spring.profiles.active")).isEqualTo("fair-share");
    assertThat(bound(scheduler, "arranger.leader-election.enabled")).isEqualTo("true");
    assertThat(bound(scheduler, "arranger.leader-election.lease-name"))
        .isEqualTo("arranger-scheduler");
    assertThat(bound(scheduler, "arranger.leader-election.lease-namespace")).isEqualTo(NAMESPACE);
    assertThat(bound(scheduler, "arranger.leader-election.identity"))
        .isEqualTo("arranger-scheduler-7d9f-x2k4q");
    assertThat(bound(scheduler, "arranger.leader-election.lease-duration")).isEqualTo("15s");
    assertThat(bound(scheduler, "arranger.leader-election.renew-deadline")).isEqualTo("10s");
    assertThat(bound(scheduler, "arranger.leader-election.retry-period")).isEqualTo("2s");
    assertThat(bound(scheduler, "arranger.scheduler.period")).isEqualTo("2s");
    assertThat(bound(scheduler, "arranger.scheduler.min-cycle-interval")).isEqualTo("250ms");
    assertThat(bound(scheduler, "arranger.scheduler.cycle-on-change")).isEqualTo("false");
    assertThat(bound(scheduler, "arranger.scheduler.config-map.namespace")).isEqualTo(NAMESPACE);
    assertThat(bound(scheduler, "arranger.scheduler.config-map.name"))
        .isEqualTo("arranger-scheduler-config");
    assertThat(bound(scheduler, "arranger.scheduler.config-map.key")).isEqualTo("scheduler.yaml");
    assertThat(bound(scheduler, "management.server.port")).isEqualTo("8081");
    assertThat(bound(scheduler, "server.port")).as("the operator's window").isEqualTo("8080");
    assertThat(bound(scheduler, "arranger.watch.namespaces"))
        .as("all namespaces by default")
        .isNull();

    Binder controller =
        binderFor(
            single(objects, "Deployment", RELEASE + "-controller"),
            "arranger-controller-5c8b-q9w2e");
    assertThat(bound(controller, "spring.profiles.active")).isNull();
    assertThat(bound(controller, "arranger.leader-election.lease-name"))
        .isEqualTo("arranger-controller");
    assertThat(bound(controller, "arranger.leader-election.lease-namespace")).isEqualTo(NAMESPACE);
    assertThat(bound(controller, "arranger.leader-election.identity"))
        .isEqualTo("arranger-controller-5c8b-q9w2e");
    assertThat(bound(controller, "arranger.controller.workers")).isEqualTo("8");
    assertThat(bound(controller, "management.server.port")).isEqualTo("8081");
    assertThat(bound(controller, "arranger.controller.gpu-sharing.image"))
        .isEqualTo("curlimages/curl:8.10.1");
    assertThat(bound(controller, "arranger.controller.gpu-sharing.service-account"))
        .as("the chart's own account for the reservation pods")
        .isEqualTo(RELEASE + "-gpu-reservation");
  }

  /**
   * The GPU reservation pods run under an account of their own that may only read and annotate the
   * pods of the release namespace; the controller may create and delete pods there.
   */
  @Test
  void gpuReservationsMayOnlyReadAndAnnotatePodsOfTheReleaseNamespace() {
    List<JsonObject> objects = render(List.of());

    String name = RELEASE + "-gpu-reservation";
    assertThat(string(single(objects, "ServiceAccount", name), "metadata", "namespace"))
        .isEqualTo(NAMESPACE);
    JsonObject role = single(objects, "Role", name);
    assertThat(at(role, "rules").getAsJsonArray()).hasSize(1);
    assertThat(verbsOn(role, "pods")).containsExactlyInAnyOrder("get", "patch");
    JsonObject binding = single(objects, "RoleBinding", name);
    assertThat(string(binding, "subjects", 0, "name")).isEqualTo(name);
    assertThat(string(binding, "roleRef", "name")).isEqualTo(name);
    assertThat(verbsOn(single(objects, "Role", RELEASE + "-controller"), "pods"))
        .containsExactlyInAnyOrder("get", "list", "watch", "create", "delete");
  }

  @Test
  void namespacedModeGrantsTheJobRightsOnlyInTheListedNamespacesAndTellsBothServices() {
    List<JsonObject> objects = render(List.of("--set", "watchNamespaces={team-a,team-b}"));

    for (String component : COMPONENTS) {
      String name = RELEASE + "-" + component;
      for (String namespace : List.of("team-a", "team-b")) {
        JsonObject role =
            objects.stream()
                .filter(
                    o ->
                        kind(o).equals("Role")
                            && name(o).equals(name + "-jobs")
                            && namespace.equals(string(o, "metadata", "namespace")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Role " + name + "-jobs in " + namespace));
        assertThat(role.toString()).contains("\"tyjobs\"", "\"tyjobs/status\"", "\"events\"");
        JsonObject binding =
            objects.stream()
                .filter(
                    o ->
                        kind(o).equals("RoleBinding")
                            && name(o).equals(name + "-jobs")
                            && namespace.equals(string(o, "metadata", "namespace")))
                .findFirst()
                .orElseThrow();
        assertThat(string(binding, "subjects", 0, "name")).isEqualTo(name);
        assertThat(string(binding, "subjects", 0, "namespace")).isEqualTo(NAMESPACE);
      }
      Binder environment = binderFor(single(objects, "Deployment", name), name + "-0");
      assertThat(environment.bind("arranger.watch.namespaces", String[].class).get())
          .containsExactly("team-a", "team-b");
    }
    assertThat(ofKind(objects, "ClusterRole"))
        .extracting(Manifests::name)
        .as("cluster-wide the controller only reads nodes")
        .doesNotContain(RELEASE + "-controller")
        .contains(RELEASE + "-controller-nodes");
    JsonObject controllerNodes = single(objects, "ClusterRole", RELEASE + "-controller-nodes");
    assertThat(verbsOn(controllerNodes, "nodes")).containsExactlyInAnyOrder("get", "list", "watch");
    assertThat(controllerNodes.toString()).doesNotContain("tyjobs", "pods", "events");
    JsonObject schedulerRole = single(objects, "ClusterRole", RELEASE + "-scheduler");
    assertThat(schedulerRole.toString())
        .as("cluster-wide the scheduler reads nodes, pods and Queues only")
        .contains("\"nodes\"", "\"pods\"", "\"queues\"")
        .doesNotContain("tyjobs", "events");
    JsonObject controllerJobs =
        objects.stream()
            .filter(o -> kind(o).equals("Role") && name(o).equals(RELEASE + "-controller-jobs"))
            .findFirst()
            .orElseThrow();
    assertThat(controllerJobs.toString()).contains("\"create\"", "\"delete\"", "\"pods\"");
    // A Queue is cluster-scoped: its Events go to the default namespace, which is not watched here.
    JsonObject queueEvents = single(objects, "Role", RELEASE + "-scheduler-queue-events");
    assertThat(string(queueEvents, "metadata", "namespace")).isEqualTo("default");
    assertThat(verbsOn(queueEvents, "events")).containsExactlyInAnyOrder("create", "patch");
    assertThat(queueEvents.toString()).doesNotContain("tyjobs", "pods");
    JsonObject queueEventsBinding =
        single(objects, "RoleBinding", RELEASE + "-scheduler-queue-events");
    assertThat(string(queueEventsBinding, "subjects", 0, "name")).isEqualTo(RELEASE + "-scheduler");
    assertThat(
            render(List.of("--set", "watchNamespaces={default,team-a}")).stream()
                .filter(o -> name(o).equals(RELEASE + "-scheduler-queue-events")))
        .as("with default watched, its jobs Role covers the Queues' Events")
        .isEmpty();
  }

  @Test
  void aggregatedClusterRolesJoinTheBuiltInEditAndViewRoles() {
    List<JsonObject> objects = render(List.of());

    JsonObject edit = single(objects, "ClusterRole", RELEASE + "-edit");
    JsonObject view = single(objects, "ClusterRole", RELEASE + "-view");
    assertThat(string(edit, "metadata", "labels", "rbac.authorization.k8s.io/aggregate-to-edit"))
        .isEqualTo("true");
    assertThat(string(edit, "metadata", "labels", "rbac.authorization.k8s.io/aggregate-to-admin"))
        .isEqualTo("true");
    assertThat(string(view, "metadata", "labels", "rbac.authorization.k8s.io/aggregate-to-view"))
        .isEqualTo("true");
    assertThat(verbsOn(edit, "tyjobs"))
        .contains("create", "update", "patch", "delete", "get", "list", "watch");
    assertThat(verbsOn(edit, "tyjobs/status"))
        .as("status is the services'")
        .containsOnly("get", "list", "watch");
    assertThat(verbsOn(view, "tyjobs")).containsOnly("get", "list", "watch");
    assertThat(verbsOn(view, "queues")).containsOnly("get", "list", "watch");
    assertThat(ofKind(render(List.of("--set", "rbac.aggregatedClusterRoles=false")), "ClusterRole"))
        .extracting(Manifests::name)
        .doesNotContain(RELEASE + "-edit", RELEASE + "-view");
  }

  private static List<String> verbsOn(JsonObject role, String resource) {
    List<String> verbs = new ArrayList<>();
    for (JsonElement rule : at(role, "rules").getAsJsonArray()) {
      boolean matches =
          at(rule, "resources").getAsJsonArray().asList().stream()
              .anyMatch(r -> r.getAsString().equals(resource));
      if (matches) {
        at(rule, "verbs").getAsJsonArray().forEach(verb -> verbs.add(verb.getAsString()));
      }
    }
    return verbs;
  }

  /**
   * Every metric the dashboard and the alerts query; MonitoringEndToEndIT checks the services
   * expose them.
   */
  static final Pattern METRIC_NAME =
      Pattern.compile("\\b(arranger_[a-z0-9_]+|workqueue_[a-z0-9_]+|rest_client_[a-z0-9_]+)\\b");

  @Test
  void dashboardAndAlertsAreOffByDefaultAndQueryTheServicesMetricsWhenEnabled() {
    assertThat(render(List.of()))
        .extracting(Manifests::kind)
        .doesNotContain("PrometheusRule")
        .filteredOn(kind -> kind.equals("ConfigMap"))
        .hasSize(1);

    List<JsonObject> objects =
        render(List.of("--set", "grafanaDashboard.enabled=true,prometheusRule.enabled=true"));

    JsonObject dashboard = single(objects, "ConfigMap", RELEASE + "-dashboard");
    assertThat(string(dashboard, "metadata", "labels", "grafana_dashboard")).isEqualTo("1");
    JsonObject json =
        com.google.gson.JsonParser.parseString(string(dashboard, "data", "arranger.json"))
            .getAsJsonObject();
    assertThat(json.get("title").getAsString()).isEqualTo("Arranger");
    List<String> queries = new ArrayList<>();
    for (JsonElement panel : json.getAsJsonArray("panels")) {
      JsonElement targets = panel.getAsJsonObject().get("targets");
      if (targets != null) {
        targets.getAsJsonArray().forEach(target -> queries.add(string(target, "expr")));
      }
    }
    assertThat(queries).hasSizeGreaterThan(15);
    assertThat(String.join("\n", queries))
        .contains(
            "arranger_scheduler_e2e_scheduling_duration_seconds_bucket",
            "arranger_scheduler_action_scheduling_duration_seconds_bucket",
            "arranger_scheduler_plugin_scheduling_duration_seconds_bucket",
            "arranger_controller_reconcile_duration_seconds_bucket",
            "arranger_scheduler_job_scheduling_duration_seconds_bucket",
            "arranger_controller_job_start_duration_seconds_bucket",
            "workqueue_depth",
            "workqueue_queue_duration_seconds_bucket",
            "rest_client_requests_total");
    assertThat(queries)
        .noneMatch(query -> query.contains("quantile="))
        .allMatch(query -> METRIC_NAME.matcher(query).find());

    JsonObject rule = single(objects, "PrometheusRule", RELEASE);
    List<String> alerts = new ArrayList<>();
    for (JsonElement alert : at(rule, "spec", "groups", 0, "rules").getAsJsonArray()) {
      alerts.add(string(alert, "alert"));
      assertThat(METRIC_NAME.matcher(string(alert, "expr")).find())
          .as(string(alert, "alert"))
          .isTrue();
    }
    assertThat(alerts)
        .containsExactly(
            "ArrangerNoLeader",
            "ArrangerSchedulingCycleSlow",
            "ArrangerJobsPendingTooLong",
            "ArrangerStatusWriteErrors",
            "ArrangerReconcileErrors");
  }

  @Test
  void schedulerConfigMapDefaultsToTheBuiltInConfiguration() throws IOException {
    JsonObject configMap = single(render(List.of()), "ConfigMap", "arranger-scheduler-config");

    String text = string(configMap, "data", "scheduler.yaml");
    String builtIn = Files.readString(helm.projectRoot().resolve("config/scheduler/default.yaml"));
    assertThat(Manifests.parse(text)).isEqualTo(Manifests.parse(builtIn));
  }

  /**
   * The chart renders a policy profile from config/scheduler/ itself (linked in), byte for byte.
   */
  @ParameterizedTest(name = "--set scheduler.policyProfile={0}")
  @MethodSource("schedulerConfigurationExamples")
  void policyProfileRendersItsFileOfConfigSchedulerVerbatim(Path profile) throws IOException {
    String name = profile.getFileName().toString().replace(".yaml", "");
    JsonObject configMap =
        single(
            render(List.of("--set", "scheduler.policyProfile=" + name)),
            "ConfigMap",
            "arranger-scheduler-config");

    assertThat(string(configMap, "data", "scheduler.yaml")).isEqualTo(Files.readString(profile));
    assertThat(Files.isSymbolicLink(helm.chart().resolve("scheduler-configurations"))).isTrue();
    assertThat(helm.chart().resolve("scheduler-configurations").toRealPath())
        .isEqualTo(helm.projectRoot().resolve("config/scheduler").toRealPath());
  }

  @Test
  void valuesCarryNoCopyOfAProfileAndAnUnknownProfileIsRefusedNamingIt() throws IOException {
    JsonObject values =
        Manifests.parse(Files.readString(helm.chart().resolve("values.yaml"))).get(0);
    assertThat(string(values, "scheduler", "configuration")).isEmpty();
    assertThat(string(values, "scheduler", "policyProfile")).isEqualTo("default");

    HelmCli.Result result =
        helm.run(
            "template", RELEASE, "charts/arranger", "--set", "scheduler.policyProfile=fairshare");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("scheduler.policyProfile \"fairshare\" names no file");
  }

  static Stream<Path> schedulerConfigurationExamples() throws IOException {
    return yamlFiles(HelmCli.findProjectRoot().resolve("config/scheduler")).stream();
  }

  @ParameterizedTest(name = "--set-file scheduler.configuration={0}")
  @MethodSource("schedulerConfigurationExamples")
  void schedulerConfigMapHoldsAnExampleVerbatim(Path example) throws IOException {
    JsonObject configMap =
        single(
            render(List.of("--set-file", "scheduler.configuration=" + example)),
            "ConfigMap",
            "arranger-scheduler-config");

    assertThat(string(configMap, "data", "scheduler.yaml")).isEqualTo(Files.readString(example));
  }

  @Test
  void noConfigMapWhenTheOperatorLetsAProfileDecide() {
    List<JsonObject> objects = render(List.of("--set", "scheduler.configMap.create=false"));

    assertThat(ofKind(objects, "ConfigMap")).isEmpty();
  }

  @Test
  void refusesSeveralActiveReplicasWithoutLeaderElection() {
    HelmCli.Result result =
        helm.run("template", RELEASE, "charts/arranger", "--set", "leaderElection.enabled=false");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("leaderElection.enabled is false");
  }

  @Test
  void schemaRefusesAnUnknownValue() {
    HelmCli.Result result =
        helm.run("template", RELEASE, "charts/arranger", "--set", "scheduler.replicas=3");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("replicas");
  }

  /**
   * Every object of the chart, rendered for this API server's version, is accepted by it with
   * {@code dryRun=All}: schema, defaulting and admission run, nothing is stored. The CRDs are
   * already installed, so they are sent as a dry-run update. ServiceMonitor is the Prometheus
   * Operator's kind, which this API server does not serve: it is checked to render, and skipped.
   */
  @ParameterizedTest(name = "dry run with {0}")
  @ValueSource(
      strings = {
        "default values",
        "serviceMonitor.enabled=true,grafanaDashboard.enabled=true,prometheusRule.enabled=true,commonLabels.team=rl,imagePullSecrets[0].name=regcred,"
            + "scheduler.podAnnotations.a=b,controller.nodeSelector.pool=system,"
            + "scheduler.tolerations[0].key=dedicated,scheduler.tolerations[0].operator=Exists,"
            + "controller.extraEnv[0].name=LOGGING_LEVEL_ROOT,controller.extraEnv[0].value=DEBUG"
      })
  void everyRenderedObjectIsAcceptedByTheApiServerInADryRun(String values, ApiClient client)
      throws ApiException {
    String namespace = Manifests.createNamespace(client, "chart-dry-run");
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--namespace",
                namespace,
                "--include-crds",
                "--kube-version",
                serverVersion(client)));
    if (!values.equals("default values")) {
      arguments.addAll(List.of("--set", values));
    }
    List<JsonObject> objects = render(RELEASE, arguments);
    Manifests.Resources resources = new Manifests.Resources(client);

    List<String> accepted = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (JsonObject object : objects) {
      if (kind(object).equals("ServiceMonitor") || kind(object).equals("PrometheusRule")) {
        assertThat(resources.of(object)).as("this API server has no Prometheus Operator").isEmpty();
        skipped.add(Manifests.describe(object));
        continue;
      }
      DynamicKubernetesApi api = resources.api(object);
      if (kind(object).equals("CustomResourceDefinition")) {
        DynamicKubernetesObject installed =
            Manifests.requireSuccess(api.get(name(object)), "reading " + name(object));
        object
            .getAsJsonObject("metadata")
            .addProperty("resourceVersion", installed.getMetadata().getResourceVersion());
        Manifests.requireSuccess(
            api.update(new DynamicKubernetesObject(object), new UpdateOptions().dryRun("All")),
            "dry-run update of " + Manifests.describe(object));
      } else {
        assertThat(string(object, "metadata", "namespace"))
            .as("%s's namespace", Manifests.describe(object))
            .isEqualTo(resources.namespaced(object) ? namespace : null);
        resources.dryRunCreate(object);
      }
      accepted.add(Manifests.describe(object));
    }

    assertThat(accepted)
        .hasSize(objects.size() - skipped.size())
        .contains(
            "Deployment " + RELEASE + "-scheduler",
            "Deployment " + RELEASE + "-controller",
            "CustomResourceDefinition tyjobs.arranger.tyrl.io",
            "CustomResourceDefinition queues.arranger.tyrl.io");
    assertThat(skipped).hasSize(values.contains("serviceMonitor.enabled=true") ? 3 : 0);
    assertThat(
            new DynamicKubernetesApi("apps", "v1", "deployments", client)
                .get(namespace, RELEASE + "-scheduler")
                .getHttpStatusCode())
        .as("a dry run stores no Deployment")
        .isEqualTo(404);
    assertThat(
            new DynamicKubernetesApi("rbac.authorization.k8s.io", "v1", "clusterroles", client)
                .get(RELEASE + "-scheduler")
                .getHttpStatusCode())
        .as("a dry run stores no ClusterRole")
        .isEqualTo(404);
  }

  /**
   * The chart's ClusterRole, Role and their bindings for one service, created for real with the
   * bindings' subjects moved from the service's ServiceAccount to the identity the test control
   * plane gives that service (it starts with no rights). The identity then asks the API server,
   * with SelfSubjectAccessReview, about everything its service does and a sample of what it must
   * not do.
   */
  @ParameterizedTest(name = "the {0} gets what it needs and no more")
  @ValueSource(strings = {"scheduler", "controller"})
  void rbacGivesEachServiceLeastPrivilege(
      String component, ApiClient admin, ControlPlane controlPlane) throws Exception {
    String namespace = Manifests.createNamespace(admin, "chart-rbac");
    String release = "rbac-" + UUID.randomUUID().toString().substring(0, 8);
    List<JsonObject> objects = render(release, List.of("--namespace", namespace));
    String serviceAccount =
        name(single(objects, "ServiceAccount", release + "-arranger-" + component));
    String identity = "arranger-" + component;
    List<JsonObject> rbac =
        objects.stream()
            .filter(
                object ->
                    Set.of("ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding")
                        .contains(kind(object)))
            .filter(
                object ->
                    component.equals(
                        string(object, "metadata", "labels", "app.kubernetes.io/component")))
            .sorted(
                (a, b) -> Boolean.compare(kind(a).endsWith("Binding"), kind(b).endsWith("Binding")))
            .toList();
    // The controller's read of nodes is a ClusterRole of its own, kept in the namespaced mode too.
    List<String> expectedKinds =
        component.equals("controller")
            ? List.of(
                "ClusterRole",
                "ClusterRole",
                "Role",
                "ClusterRoleBinding",
                "ClusterRoleBinding",
                "RoleBinding")
            : List.of("ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding");
    assertThat(rbac).extracting(Manifests::kind).containsExactlyInAnyOrderElementsOf(expectedKinds);
    for (JsonObject object : rbac) {
      if (kind(object).endsWith("Binding")) {
        assertThat(at(object, "subjects").getAsJsonArray())
            .as("subjects of %s", Manifests.describe(object))
            .containsExactly(subject("ServiceAccount", serviceAccount, namespace));
        JsonArray subjects = new JsonArray();
        subjects.add(subject("User", identity, null));
        object.add("subjects", subjects);
      } else {
        assertThat(object.toString())
            .as("%s uses no wildcards", Manifests.describe(object))
            .doesNotContain("\"*\"");
      }
    }

    Manifests.Resources resources = new Manifests.Resources(admin);
    List<JsonObject> created = new ArrayList<>();
    try {
      for (JsonObject object : rbac) {
        Manifests.requireSuccess(
            resources.api(object).create(new DynamicKubernetesObject(object)),
            "creating " + Manifests.describe(object));
        created.add(object);
      }
      boolean scheduler = component.equals("scheduler");
      List<Access> needs =
          scheduler
              ? ServiceRights.schedulerNeeds(
                  namespace, "arranger-scheduler", "arranger-scheduler-config")
              : ServiceRights.controllerNeeds(namespace, "arranger-controller");
      List<Access> mustNot =
          scheduler
              ? ServiceRights.schedulerMustNot(namespace, "arranger-controller")
              : ServiceRights.controllerMustNot(namespace, "arranger-scheduler");
      ApiClient client = controlPlane.client(identity);
      awaitAllowed(client, needs.get(needs.size() - 1));

      List<String> wrong = new ArrayList<>();
      for (Access access : needs) {
        if (!access.isAllowedFor(client)) {
          wrong.add(identity + " cannot " + access);
        }
      }
      for (Access access : mustNot) {
        if (access.isAllowedFor(client)) {
          wrong.add(identity + " can " + access);
        }
      }
      assertThat(wrong).isEmpty();
    } finally {
      for (JsonObject object : created) {
        DynamicKubernetesApi api = resources.api(object);
        String objectNamespace = string(object, "metadata", "namespace");
        KubernetesApiResponse<DynamicKubernetesObject> deleted =
            objectNamespace == null
                ? api.delete(name(object))
                : api.delete(objectNamespace, name(object));
        assertThat(deleted.isSuccess()).as("deleting %s", Manifests.describe(object)).isTrue();
      }
    }
  }

  private static JsonObject subject(String kind, String name, String namespace) {
    JsonObject subject = new JsonObject();
    subject.addProperty("kind", kind);
    if (kind.equals("User")) {
      subject.addProperty("apiGroup", "rbac.authorization.k8s.io");
    }
    subject.addProperty("name", name);
    if (namespace != null) {
      subject.addProperty("namespace", namespace);
    }
    return subject;
  }

  /** RBAC objects reach the authorizer through its informers, a moment after they are created. */
  private static void awaitAllowed(ApiClient identity, Access access) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (!access.isAllowedFor(identity)) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "the API server did not allow " + access + " within 30 s of creating the bindings");
      }
      Thread.sleep(100);
    }
  }

  private static List<JsonObject> render(List<String> extraArguments) {
    List<String> arguments = new ArrayList<>(List.of("--namespace", NAMESPACE));
    arguments.addAll(extraArguments);
    return render(RELEASE, arguments);
  }

  static List<JsonObject> render(String release, List<String> extraArguments) {
    List<String> arguments = new ArrayList<>(List.of("template", release, "charts/arranger"));
    arguments.addAll(extraArguments);
    return Manifests.parse(helm.runOrFail(arguments.toArray(String[]::new)));
  }

  /**
   * The API server's version as helm's --kube-version takes it, so that version-dependent APIs
   * match.
   */
  private static String serverVersion(ApiClient client) throws ApiException {
    VersionInfo version = new VersionApi(client).getCode().execute();
    Matcher semantic = Pattern.compile("^v?(\\d+\\.\\d+\\.\\d+)").matcher(version.getGitVersion());
    if (semantic.find()) {
      return semantic.group(1);
    }
    return version.getMajor().replaceAll("\\D", "")
        + "."
        + version.getMinor().replaceAll("\\D", "")
        + ".0";
  }

  private static List<Path> yamlFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  private static JsonElement podLabels(JsonObject deployment) {
    return at(deployment, "spec", "selector", "matchLabels");
  }

  /**
   * Spring's view of the container's environment, as the kubelet would set it: downward-API fields
   * filled in, {@code $(VAR)} references expanded in order, and the property source named like the
   * real system environment so that Spring applies its environment-variable name mapping.
   */
  private static Binder binderFor(JsonObject deployment, String podName) {
    Map<String, Function<JsonObject, String>> downwardApi =
        Map.of(
            "metadata.namespace", object -> string(object, "metadata", "namespace"),
            "metadata.name", object -> podName);
    Map<String, Object> environment = new LinkedHashMap<>();
    JsonArray env =
        at(deployment, "spec", "template", "spec", "containers", 0, "env").getAsJsonArray();
    for (JsonElement variable : env) {
      String value;
      if (at(variable, "valueFrom") != null) {
        String field = string(variable, "valueFrom", "fieldRef", "fieldPath");
        assertThat(downwardApi)
            .as("downward API field of %s", string(variable, "name"))
            .containsKey(field);
        value = downwardApi.get(field).apply(deployment);
      } else {
        value = expand(string(variable, "value"), environment);
      }
      environment.put(string(variable, "name"), value);
    }
    return new Binder(
        ConfigurationPropertySources.from(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment)));
  }

  private static String expand(String value, Map<String, Object> defined) {
    Matcher reference = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(value);
    StringBuilder expanded = new StringBuilder();
    while (reference.find()) {
      Object target = defined.get(reference.group(1));
      reference.appendReplacement(
          expanded,
          Matcher.quoteReplacement(target == null ? reference.group() : target.toString()));
    }
    reference.appendTail(expanded);
    return expanded.toString();
  }

  private static String bound(Binder binder, String property) {
    return binder.bind(property, String.class).orElse(null);
  }
}
