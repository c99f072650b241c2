package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1QueueSpec;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class ArrangerEndToEndIT {

  private static final String SYSTEM_NAMESPACE = "arranger-system";
  private static final String JOBS_NAMESPACE = "rl-e2e";
  private static final List<String> POLICIES =
      List.of("Gang", "BinPack", "LeaderFirst", "MinFragment", "JobAffinity", "JobAntiAffinity");

  @Test
  void twentyMixedJobsInTwoQueuesOnSixteenNodesAllSucceedUnderTheChartsRbac(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    Path root = Path.of(System.getProperty("arranger.projectRoot"));
    Path work = Files.createTempDirectory("arranger-e2e-");
    CoreV1Api core = new CoreV1Api(admin);
    for (String namespace : List.of(SYSTEM_NAMESPACE, JOBS_NAMESPACE)) {
      core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
          .execute();
    }
    List<String> rbac =
        ChartRbac.apply(
            admin,
            root,
            SYSTEM_NAMESPACE,
            Map.of("scheduler", "arranger-scheduler", "controller", "arranger-controller"));
    assertThat(rbac).anyMatch(r -> r.startsWith("ClusterRole/"));
    for (int i = 0; i < 16; i++) {
      NodeSpec.Builder node =
          NodeSpec.named("e2e-node-" + i).label(SimulatedNodeAgent.SIMULATED_LABEL, "true");
      nodes.register(
          i < 4
              ? node.cpu("32").memory("128Gi").gpus(8).build()
              : node.cpu("16").memory("64Gi").build());
    }
    ArrangerResources.queues(admin)
        .create(
            new V1alpha1Queue()
                .apiVersion(ArrangerResources.API_VERSION)
                .kind(ArrangerResources.QUEUE_KIND)
                .metadata(new V1ObjectMeta().name("research"))
                .spec(new V1alpha1QueueSpec().weight(2).reclaimable(true)))
        .throwsApiException();

    try (SimulatedNodeAgent agent =
            new SimulatedNodeAgent(
                    controlPlane.adminClient(),
                    admin,
                    new SimulatedNodeAgent.Timing(Duration.ofMillis(300), Duration.ofSeconds(4)))
                .start();
        ServiceProcess scheduler =
            service(controlPlane, root, work, "scheduler", "arranger-scheduler");
        ServiceProcess controller =
            service(controlPlane, root, work, "controller", "arranger-controller");
        ClusterInvariants invariants = new ClusterInvariants(admin, JOBS_NAMESPACE).start()) {
      scheduler.awaitReady(Duration.ofSeconds(90));
      controller.awaitReady(Duration.ofSeconds(90));

      for (int j = 0; j < 20; j++) {
        TYJobBuilder job =
            TYJobBuilder.named("job-" + j)
                .namespace(JOBS_NAMESPACE)
                .leader("learner", j % 4 == 0 ? "4" : "2", "8Gi")
                .workers("actor", 2 + j % 5, j % 3 == 0 ? "2" : "1", "2Gi")
                .set("queue", j % 2 == 0 ? "default" : "research")
                .set("priority", 1 + j % 10)
                .set("minWorkersNum", 1 + j % 2)
                .set("schedulerPolicy", Map.of("basicPolicy", POLICIES.get(j % POLICIES.size())));
        if (j % 5 == 0) {
          job.set("gang", Map.of("mode", "NonStrict"));
        }
        job.create(admin);
      }

      await()
          .atMost(Duration.ofMinutes(4))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () ->
                  assertThat(unfinished(admin))
                      .as("jobs not Succeeded, with their status")
                      .isEmpty());

      assertThat(invariants.samples()).isGreaterThan(10);
      assertThat(invariants.violations()).isEmpty();
      assertThat(scheduler.isAlive()).isTrue();
      assertThat(controller.isAlive()).isTrue();
      assertThat(scheduler.logTail()).doesNotContain("is forbidden");
      assertThat(controller.logTail()).doesNotContain("is forbidden");
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
            "arranger.leader-election.lease-namespace",
            SYSTEM_NAMESPACE,
            "arranger.scheduler.config-map.namespace",
            SYSTEM_NAMESPACE,
            "arranger.scheduler.period",
            "500ms"),
        List.of("-Xmx384m"));
  }

  private static Map<String, String> unfinished(ApiClient client) throws Exception {
    return ArrangerResources.tyJobs(client)
        .list(JOBS_NAMESPACE)
        .throwsApiException()
        .getObject()
        .getItems()
        .stream()
        .filter(job -> !"Succeeded".equals(stage(job)))
        .collect(
            Collectors.toMap(
                job -> job.getMetadata().getName(), job -> String.valueOf(job.getStatus())));
  }

  private static String stage(V1alpha1TYJob job) {
    return job.getStatus() == null || job.getStatus().getStage() == null
        ? ""
        : job.getStatus().getStage().getValue();
  }
}
