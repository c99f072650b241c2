package io.tyrl.arranger.scheduler.app;

import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With a period far longer than the test, only cycles started by changes can place anything: a job
 * submitted is decided at once, room freed by a deleted job lets a waiting one in, and the
 * scheduler's own status writes start no further cycles.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerCyclePacingIT {

  private static final Duration LONG_PERIOD = Duration.ofMinutes(10);
  private static final Duration WELL_BEFORE_THE_PERIOD = Duration.ofSeconds(20);

  @Test
  void changesStartCyclesLongBeforeThePeriodAndTheSchedulersOwnWritesDoNot(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("pacing");
    String namespace = ClusterFixtures.namespace(client, "pacing");
    nodes.register(
        NodeSpec.named(test + "-node")
            .cpu("4")
            .memory("16Gi")
            .label("arranger-test", test)
            .build());

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane,
            "scheduler-" + test,
            "lease-" + test,
            "config-" + test,
            Map.of(
                "arranger.scheduler.period",
                LONG_PERIOD.toSeconds() + "s",
                "arranger.scheduler.min-cycle-interval",
                "50ms"))) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> scheduler.isLeader() && scheduler.cycles() >= 1);

      TYJobBuilder.named("first")
          .namespace(namespace)
          .leader("learner", "3", "1Gi")
          .workers("actor", 1, "500m", "1Gi")
          .nodeSelector("arranger-test", test)
          .create(client);
      await()
          .atMost(WELL_BEFORE_THE_PERIOD)
          .until(() -> state(client, namespace, "first"), "ScheduledSucceed"::equals);

      TYJobBuilder.named("second")
          .namespace(namespace)
          .leader("learner", "3", "1Gi")
          .workers("actor", 1, "500m", "1Gi")
          .nodeSelector("arranger-test", test)
          .create(client);
      await()
          .atMost(WELL_BEFORE_THE_PERIOD)
          .until(() -> state(client, namespace, "second"), "Unscheduled"::equals);

      ArrangerResources.tyJobs(client).delete(namespace, "first").throwsApiException();
      await()
          .atMost(WELL_BEFORE_THE_PERIOD)
          .until(() -> state(client, namespace, "second"), "ScheduledSucceed"::equals);

      long settled = scheduler.cycles();
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .until(() -> scheduler.cycles() <= settled + 1);
    }
  }

  private static String state(ApiClient client, String namespace, String name) throws Exception {
    V1alpha1TYJob job =
        ClusterFixtures.jobs(client, namespace).stream()
            .filter(candidate -> name.equals(candidate.getMetadata().getName()))
            .findFirst()
            .orElseThrow();
    return job.getStatus() == null || job.getStatus().getScheduleState() == null
        ? null
        : job.getStatus().getScheduleState().getValue();
  }
}
