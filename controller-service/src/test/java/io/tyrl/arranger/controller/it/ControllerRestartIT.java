package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static io.tyrl.arranger.controller.it.ClusterHarness.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.V1Pod;
import io.micrometer.core.instrument.MeterRegistry;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A controller stopped mid-Starting and replaced by a new one: nothing is created twice, the job
 * completes.
 */
@ExtendWith(KubeApiServerExtension.class)
class ControllerRestartIT {

  @Test
  void controllerRestartedWhileStartingCreatesNoPodTwiceAndTheJobCompletes(
      ControlPlane controlPlane) throws Exception {
    ClusterHarness cluster = ClusterHarness.inNewNamespace(controlPlane, "restart");
    String job = "resumed";
    String leaderPod = job + "-learner";

    String leaderUid;
    try (ConfigurableApplicationContext first = cluster.startController("restart-first")) {
      cluster.createJob(TYJobBody.named(job).workerSet("actor", 3).spec("minWorkersNum", 3));
      cluster.scheduleAll(job, "actor", 3);
      leaderUid = cluster.awaitPod(leaderPod).getMetadata().getUid();
      cluster.awaitStage(job, "Starting");
      assertThat(podsCreated(first, "worker")).isZero();
    }
    // While no controller runs, the leader comes up: the next controller must pick up from here.
    String leaderAddress = cluster.run(leaderPod).getStatus().getPodIP();

    try (ConfigurableApplicationContext second = cluster.startController("restart-second")) {
      List<V1Pod> workers =
          IntStream.range(0, 3).mapToObj(i -> cluster.awaitPod(job + "-actor-" + i)).toList();
      assertThat(workers)
          .allSatisfy(
              worker -> assertThat(env(worker, "TYJOB_LEADER_ADDR")).isEqualTo(leaderAddress));
      workers.forEach(worker -> cluster.run(worker.getMetadata().getName()));
      cluster.awaitStage(job, "Running");

      assertThat(cluster.pod(leaderPod).orElseThrow().getMetadata().getUid())
          .as("the same leader pod")
          .isEqualTo(leaderUid);
      assertThat(cluster.status(job).getAsJsonObject("leader").get("restarts").getAsInt()).isZero();
      assertThat(podsCreated(second, "leader"))
          .as("the new controller did not create the leader again")
          .isZero();
      assertThat(podsCreated(second, "worker")).isEqualTo(3);
      assertThat(cluster.pods(job)).hasSize(4);

      cluster.succeed(leaderPod);
      cluster.awaitStage(job, "Succeeded");
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(cluster.eventReasons(job))
                      .containsOnlyOnce("LeaderCreated", "Started", "LeaderSucceeded"));
    }
  }

  private static double podsCreated(ConfigurableApplicationContext context, String role) {
    return context
        .getBean(MeterRegistry.class)
        .get("arranger.controller.pod.creations")
        .tag("role", role)
        .counter()
        .count();
  }
}
