package io.tyrl.arranger.controller.it;

import static io.tyrl.arranger.controller.it.ClusterHarness.TIMEOUT;
import static io.tyrl.arranger.controller.it.ClusterHarness.env;
import static io.tyrl.arranger.controller.it.ClusterHarness.isDeleted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The TYJob lifecycle end to end: a real API server, the controller application running in-process,
 * the test acting as scheduler (allocations in status) and kubelet (pod status).
 */
@ExtendWith(KubeApiServerExtension.class)
class TYJobLifecycleIT {

  private static ClusterHarness cluster;
  private static ConfigurableApplicationContext controller;

  @BeforeAll
  static void startController(ControlPlane controlPlane) throws Exception {
    cluster = ClusterHarness.inNewNamespace(controlPlane, "lifecycle");
    controller = cluster.startController("lifecycle-it");
  }

  @AfterAll
  static void stopController() {
    if (controller != null) {
      controller.close();
    }
  }

  @ParameterizedTest(name = "cleanPodPolicy {0}")
  @ValueSource(strings = {"All", "Running", "None"})
  void leaderWithFourWorkersRunsToSuccessAndIsCleanedUpPerPolicy(String policy) throws Exception {
    String job = "train-" + policy.toLowerCase();
    cluster.createJob(
        TYJobBody.named(job)
            .workerSet("actor", 4)
            .spec("minWorkersNum", 4)
            .spec("cleanPodPolicy", policy)
            .sharedVolume("shared"));

    cluster.awaitStage(job, "Pending");
    assertThat(cluster.pods(job)).isEmpty();

    cluster.scheduleAll(job, "actor", 4);
    V1Pod leader = cluster.awaitPod(job + "-learner");
    cluster.awaitStage(job, "Starting");
    assertLeaderPod(job, leader);
    assertThat(cluster.pods(job)).as("workers wait for the leader's address").hasSize(1);

    String leaderAddress = cluster.run(job + "-learner").getStatus().getPodIP();
    List<V1Pod> workers =
        IntStream.range(0, 4).mapToObj(i -> cluster.awaitPod(job + "-actor-" + i)).toList();
    for (int i = 0; i < workers.size(); i++) {
      V1Pod worker = workers.get(i);
      assertThat(env(worker, "TYJOB_LEADER_ADDR")).isEqualTo(leaderAddress);
      assertThat(env(worker, "TYJOB_ROLE")).isEqualTo("worker");
      assertThat(env(worker, "TYJOB_WORKER_SET")).isEqualTo("actor");
      assertThat(env(worker, "TYJOB_WORKER_INDEX")).isEqualTo(Integer.toString(i));
      assertThat(worker.getSpec().getNodeName()).isEqualTo(cluster.nodeB);
      assertThat(worker.getMetadata().getLabels())
          .containsEntry("arranger.tyrl.io/role", "worker")
          .containsEntry("arranger.tyrl.io/worker-set", "actor")
          .containsEntry("arranger.tyrl.io/worker-index", Integer.toString(i));
    }
    assertThat(cluster.stage(job))
        .as("not Running before minWorkersNum workers are ready")
        .isEqualTo("Starting");

    workers.forEach(worker -> cluster.run(worker.getMetadata().getName()));
    cluster.awaitStage(job, "Running");
    assertThat(cluster.status(job).get("readyWorkers").getAsInt()).isEqualTo(4);
    assertThat(cluster.status(job).has("startTime")).isTrue();

    cluster.succeed(job + "-learner");
    cluster.awaitStage(job, "Succeeded");
    assertThat(cluster.condition(job, "Finished").get("reason").getAsString())
        .isEqualTo("LeaderSucceeded");
    assertThat(cluster.status(job).has("completionTime")).isTrue();
    // Events come after the plan's deletes: once the last transition's event is there, cleanup was
    // applied.
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(cluster.eventReasons(job))
                    .contains("LeaderCreated", "Started", "LeaderSucceeded"));

    List<String> workerNames =
        workers.stream().map(worker -> worker.getMetadata().getName()).toList();
    switch (policy) {
      case "All" ->
          await()
              .atMost(TIMEOUT)
              .untilAsserted(
                  () -> {
                    assertThat(isDeleted(cluster.pod(job + "-learner"))).isTrue();
                    workerNames.forEach(
                        name -> assertThat(isDeleted(cluster.pod(name))).as(name).isTrue());
                  });
      case "Running" -> {
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () ->
                    workerNames.forEach(
                        name -> assertThat(isDeleted(cluster.pod(name))).as(name).isTrue()));
        assertThat(isDeleted(cluster.pod(job + "-learner")))
            .as("the succeeded leader stays")
            .isFalse();
      }
      default -> {
        assertThat(isDeleted(cluster.pod(job + "-learner"))).isFalse();
        workerNames.forEach(name -> assertThat(isDeleted(cluster.pod(name))).as(name).isFalse());
      }
    }
  }

  @Test
  void leaderFailingMoreOftenThanRestartLimitFailsTheJob() throws Exception {
    String job = "flaky";
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 1).spec("restartLimit", 1));
    cluster.scheduleAll(job, "actor", 1);
    String firstUid = cluster.awaitPod(job + "-learner").getMetadata().getUid();

    cluster.fail(job + "-learner");
    cluster.awaitStage(job, "Rescheduling");
    assertThat(cluster.status(job).getAsJsonObject("leader").get("restarts").getAsInt())
        .isEqualTo(1);
    assertThat(cluster.status(job).getAsJsonObject("allocations"))
        .as("allocations are given back to the scheduler")
        .satisfiesAnyOf(
            allocations -> assertThat(allocations).isNull(),
            allocations -> assertThat(allocations.size()).isZero());

    await().atMost(TIMEOUT).until(() -> cluster.pod(job + "-learner").isEmpty());
    cluster.scheduleAll(job, "actor", 1);
    V1Pod second =
        await()
            .atMost(TIMEOUT)
            .until(
                () -> cluster.pod(job + "-learner"),
                pod -> pod.isPresent() && !pod.get().getMetadata().getUid().equals(firstUid))
            .orElseThrow();
    cluster.awaitStage(job, "Starting");

    cluster.fail(second.getMetadata().getName());
    cluster.awaitStage(job, "Failed");
    assertThat(cluster.condition(job, "Finished").get("reason").getAsString())
        .isEqualTo("RestartLimitExceeded");
    assertThat(cluster.status(job).getAsJsonObject("leader").get("restarts").getAsInt())
        .isEqualTo(2);
  }

  @Test
  void deletedLeaderIsRescheduledAndWorkersGetTheNewAddress() throws Exception {
    String job = "moved";
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 2).spec("minWorkersNum", 2));
    cluster.scheduleAll(job, "actor", 2);
    cluster.awaitPod(job + "-learner");
    String firstAddress = cluster.run(job + "-learner").getStatus().getPodIP();
    runWorkers(job, 2);
    cluster.awaitStage(job, "Running");
    String firstUid = cluster.pod(job + "-learner").orElseThrow().getMetadata().getUid();

    cluster.deletePod(job + "-learner");
    cluster.awaitStage(job, "Rescheduling");
    assertThat(cluster.status(job).getAsJsonObject("leader").get("restarts").getAsInt())
        .isEqualTo(1);
    // The controller deletes the workers; the test, as kubelet, confirms every pod has stopped.
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(cluster.pods(job))
                    .allSatisfy(
                        pod -> assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull()));
    for (V1Pod pod : cluster.pods(job)) {
      cluster.confirmDeletion(pod.getMetadata().getName());
    }
    await().atMost(TIMEOUT).until(() -> cluster.pods(job).isEmpty());

    cluster.scheduleAll(job, "actor", 2);
    V1Pod newLeader =
        await()
            .atMost(TIMEOUT)
            .until(
                () -> cluster.pod(job + "-learner"),
                pod -> pod.isPresent() && !pod.get().getMetadata().getUid().equals(firstUid))
            .orElseThrow();
    cluster.awaitStage(job, "Starting");
    String newAddress = cluster.run(newLeader.getMetadata().getName()).getStatus().getPodIP();
    assertThat(newAddress).isNotEqualTo(firstAddress);

    List<V1Pod> workers = runWorkers(job, 2);
    assertThat(workers)
        .allSatisfy(worker -> assertThat(env(worker, "TYJOB_LEADER_ADDR")).isEqualTo(newAddress));
    cluster.awaitStage(job, "Running");
  }

  @Test
  void terminatingRunningJobSucceeds() throws Exception {
    String job = "stopped";
    cluster.createJob(TYJobBody.named(job).workerSet("actor", 1));
    cluster.scheduleAll(job, "actor", 1);
    cluster.awaitPod(job + "-learner");
    cluster.run(job + "-learner");
    runWorkers(job, 1);
    cluster.awaitStage(job, "Running");

    cluster.setTerminating(job);

    cluster.awaitStage(job, "Succeeded");
    assertThat(cluster.condition(job, "Finished").get("reason").getAsString())
        .isEqualTo("Terminated");
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(cluster.pods(job))
                    .allSatisfy(
                        pod -> assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull()));
  }

  @Test
  void invalidJobsFailNamingTheFieldWhileAValidJobRunsOn() throws Exception {
    cluster.createJob(TYJobBody.named("twins").workerSet("actor", 1).workerSet("actor", 2));
    cluster.createJob(TYJobBody.named("greedy").leaderRequestingCpu("lots").workerSet("actor", 1));
    cluster.createJob(TYJobBody.named("fine").workerSet("actor", 1));
    cluster.scheduleAll("twins", "actor", 1);
    cluster.scheduleAll("greedy", "actor", 1);
    cluster.scheduleAll("fine", "actor", 1);

    cluster.awaitStage("twins", "Failed");
    assertThat(cluster.condition("twins", "Validated").get("status").getAsString())
        .isEqualTo("False");
    assertThat(cluster.condition("twins", "Validated").get("message").getAsString())
        .contains("spec.workerSets[1].name", "duplicate name \"actor\"");
    cluster.awaitStage("greedy", "Failed");
    assertThat(cluster.condition("greedy", "Validated").get("message").getAsString())
        .contains("spec.leader.template.spec.containers[0].resources.requests[cpu]", "\"lots\"");

    cluster.awaitPod("fine-learner");
    cluster.run("fine-learner");
    runWorkers("fine", 1);
    cluster.awaitStage("fine", "Running");
    assertThat(cluster.pods("twins")).isEmpty();
    assertThat(cluster.pods("greedy")).isEmpty();
  }

  @Test
  void podsNamedAsPreemptionVictimsAreDeletedAndOnlyThose() throws Exception {
    cluster.createJob(TYJobBody.named("victim").workerSet("actor", 2));
    cluster.scheduleAll("victim", "actor", 2);
    cluster.awaitPod("victim-learner");
    cluster.run("victim-learner");
    runWorkers("victim", 2);
    cluster.awaitStage("victim", "Running");
    cluster.createJob(TYJobBody.named("urgent").workerSet("actor", 1));

    // The second entry names a pod that is not the named job's: it must be left alone.
    cluster.chooseVictims("urgent", "victim", List.of("victim-actor-1", "victim-learner-typo"));

    await().atMost(TIMEOUT).until(() -> isDeleted(cluster.pod("victim-actor-1")));
    assertThat(isDeleted(cluster.pod("victim-actor-0"))).isFalse();
    assertThat(isDeleted(cluster.pod("victim-learner"))).isFalse();
  }

  private List<V1Pod> runWorkers(String job, int count) {
    return IntStream.range(0, count)
        .mapToObj(
            i -> {
              String name = job + "-actor-" + i;
              V1Pod created =
                  await()
                      .atMost(TIMEOUT)
                      .pollInterval(Duration.ofMillis(100))
                      .until(
                          () -> cluster.pod(name),
                          pod ->
                              pod.isPresent()
                                  && pod.get().getMetadata().getDeletionTimestamp() == null)
                      .orElseThrow();
              cluster.run(name);
              return created;
            })
        .toList();
  }

  private static void assertLeaderPod(String job, V1Pod leader) {
    assertThat(leader.getSpec().getNodeName()).isEqualTo(cluster.nodeA);
    assertThat(leader.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(leader.getSpec().getOverhead()).isNullOrEmpty();
    assertThat(leader.getMetadata().getLabels())
        .containsAllEntriesOf(
            Map.of(
                "arranger.tyrl.io/job-name", job, "arranger.tyrl.io/role", "leader", "team", "rl"));
    V1OwnerReference owner = leader.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getKind()).isEqualTo("TYJob");
    assertThat(owner.getName()).isEqualTo(job);
    assertThat(owner.getUid())
        .isEqualTo(cluster.job(job).getAsJsonObject("metadata").get("uid").getAsString());
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
    assertThat(leader.getSpec().getVolumes()).extracting(V1Volume::getName).contains("shared");
    assertThat(env(leader, "TYJOB_NAME")).isEqualTo(job);
    assertThat(env(leader, "TYJOB_ROLE")).isEqualTo("leader");
    assertThat(env(leader, "FROM_TEMPLATE")).isEqualTo("kept");
  }
}
