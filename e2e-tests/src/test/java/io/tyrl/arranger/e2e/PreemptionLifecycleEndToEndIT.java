package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatusConditions;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Preemption is not the victim's fault: both services from their jars, one 8-cpu node, a job with
 * {@code restartLimit: 0} running when a job of higher priority in its queue needs the node. The
 * victim is rescheduled as {@code Preempted} naming the preemptor, no restart is counted, and once
 * the preemptor has finished it runs again and succeeds.
 */
@ExtendWith(KubeApiServerExtension.class)
class PreemptionLifecycleEndToEndIT {

  private static final String JOBS_NAMESPACE = "preemption-jobs";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  @Test
  void aJobWithRestartLimitZeroPreemptedByAHigherPriorityJobRunsAgainAndSucceedsWithoutARestart(
      ControlPlane controlPlane, ApiClient admin, SimulatedNodes nodes) throws Exception {
    E2eServices cluster =
        E2eServices.prepare(controlPlane, admin, nodes, "preemption", JOBS_NAMESPACE, 1);
    try (E2eServices.Running services =
        cluster.startWithPreemption(1, Duration.ofSeconds(10), LEASE_DURATION, RETRY_PERIOD)) {
      ReplicaSet controller = services.controller();

      // Each job needs 5 of the node's 8 cpu: the second one fits only in the first one's place.
      job("low", 1).set("restartLimit", 0).create(admin);
      await().atMost(Duration.ofSeconds(60)).until(() -> stage(admin, "low").equals("Running"));
      job("high", 10).create(admin);

      await("low rescheduled as Preempted")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  runningCondition(admin, "low")
                      .filter(condition -> "Preempted".equals(condition.getReason()))
                      .isPresent());
      V1alpha1TYJobStatusConditions preempted = runningCondition(admin, "low").orElseThrow();
      assertThat(preempted.getMessage())
          .contains("leader pod \"low-learner\" evicted: preempted by " + JOBS_NAMESPACE + "/high")
          .endsWith("not counted as a restart");

      await("high runs and succeeds")
          .atMost(Duration.ofSeconds(90))
          .until(() -> stage(admin, "high").equals("Succeeded"));
      await("low runs again and succeeds")
          .atMost(Duration.ofSeconds(90))
          .until(() -> stage(admin, "low").equals("Succeeded"));
      V1alpha1TYJob low = job(admin, "low");
      assertThat(low.getStatus().getLeader().getRestarts())
          .as("no restart counted for the preemption")
          .isZero();
      assertThat(low.getStatus().getEviction()).as("the eviction note is consumed").isNull();
      // Events are recorded after the status write that causes them, so they are awaited.
      await("low's events")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(eventReasons(admin, "low"))
                      .contains("Preempted", "LeaderRecreated", "LeaderSucceeded"));
      assertThat(eventReasons(admin, "low"))
          .doesNotContain("RestartLimitExceeded", "LeaderDeleted");
      assertThat(controller.leader().orElseThrow().logTail()).doesNotContain("is forbidden");
    }
  }

  private static TYJobBuilder job(String name, int priority) {
    return TYJobBuilder.named(name)
        .namespace(JOBS_NAMESPACE)
        .leader("learner", "3", "4Gi")
        .workers("actor", 1, "2", "2Gi")
        .set("minWorkersNum", 1)
        .set("priority", priority)
        .nodeSelector(E2eServices.NODE_LABEL, "preemption");
  }

  private static V1alpha1TYJob job(ApiClient admin, String name) throws Exception {
    return ArrangerResources.tyJobs(admin)
        .get(JOBS_NAMESPACE, name)
        .throwsApiException()
        .getObject();
  }

  private static String stage(ApiClient admin, String name) throws Exception {
    V1alpha1TYJob job = job(admin, name);
    return job.getStatus() == null || job.getStatus().getStage() == null
        ? ""
        : job.getStatus().getStage().getValue();
  }

  private static Optional<V1alpha1TYJobStatusConditions> runningCondition(
      ApiClient admin, String name) throws Exception {
    V1alpha1TYJob job = job(admin, name);
    List<V1alpha1TYJobStatusConditions> conditions =
        job.getStatus() == null ? null : job.getStatus().getConditions();
    return conditions == null
        ? Optional.empty()
        : conditions.stream()
            .filter(condition -> "Running".equals(condition.getType()))
            .findFirst();
  }

  private static List<String> eventReasons(ApiClient admin, String name) throws Exception {
    return new CoreV1Api(admin)
            .listNamespacedEvent(JOBS_NAMESPACE)
            .fieldSelector("involvedObject.name=" + name)
            .execute()
            .getItems()
            .stream()
            .map(CoreV1Event::getReason)
            .toList();
  }
}
