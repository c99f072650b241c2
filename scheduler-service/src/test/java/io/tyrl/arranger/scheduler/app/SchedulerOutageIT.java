package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class SchedulerOutageIT {

  @Test
  void schedulerRidesOutATwentySecondApiServerOutageAndThenSchedulesThePendingJobs(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("outage");
    String namespace = ClusterFixtures.namespace(client, "outage");
    for (int j = 0; j < 5; j++) {
      TYJobBuilder.named("waiting-" + j)
          .namespace(namespace)
          .leader("learner", "1", "1Gi")
          .workers("actor", 2, "1", "1Gi")
          .nodeSelector("arranger-test", test)
          .create(client);
    }
    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      await().atMost(Duration.ofSeconds(20)).until(scheduler::isLeader);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> scheduler.get("/actuator/health/readiness").startsWith("200"));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  ClusterFixtures.jobs(client, namespace).stream()
                      .allMatch(
                          j ->
                              j.getStatus() != null
                                  && "Unscheduled"
                                      .equals(j.getStatus().getScheduleState().getValue())));

      controlPlane.stopApiServer();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> scheduler.get("/actuator/health/readiness").startsWith("503"));
      Thread.sleep(20_000);
      assertThat(scheduler.get("/actuator/health/liveness")).startsWith("200");
      controlPlane.restartApiServer();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> scheduler.get("/actuator/health/readiness").startsWith("200"));
      for (int i = 0; i < 2; i++) {
        nodes.register(
            NodeSpec.named(test + "-node-" + i)
                .cpu("8")
                .memory("32Gi")
                .label("arranger-test", test)
                .build());
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  ClusterFixtures.jobs(client, namespace).stream()
                      .allMatch(
                          j ->
                              j.getStatus().getAllocations() != null
                                  && j.getStatus().getAllocations().size() == 3));
      assertThat(scheduler.isLeader()).isTrue();
    }
  }
}
