package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobAnnotations;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotAssemblerTest {

  private static final JSON JSON = new JSON();

  @Test
  void foreignPodsUseTheirNodeAndTerminatingOnesAreReleasing() {
    V1Pod running = pod("other", "web", "n1", "2", "4Gi", "Running");
    V1Pod leaving = pod("other", "batch", "n1", "1", "1Gi", "Running");
    leaving.getMetadata().deletionTimestamp(OffsetDateTime.now());
    V1Pod finished = pod("other", "done", "n1", "8", "8Gi", "Succeeded");
    V1Pod unbound = pod("other", "waiting", null, "8", "8Gi", "Pending");

    NodeInfo node =
        assemble(List.of(running, leaving, finished, unbound), List.of()).snapshot().nodes().get(0);

    assertThat(node.used()).isEqualTo(Resource.of("cpu", "3", "memory", "5Gi"));
    assertThat(node.releasing()).isEqualTo(Resource.of("cpu", "1", "memory", "1Gi"));
    assertThat(node.podCount()).isEqualTo(2);
    assertThat(node.allocatable().get(Resource.PODS)).isEqualTo(110);
    assertThat(node.ready()).isTrue();
  }

  @Test
  void aGpuReservationTakesNoRoomItsDeviceIsCountedByTheSharesSeatedOnIt() {
    V1Pod reservation = pod("arranger-system", "arranger-gpu-n1-1", "n1", "1", "1Gi", "Running");
    reservation.getMetadata().labels(Map.of(GpuShareDevices.RESERVATION_LABEL, "true"));
    V1Pod other = pod("other", "web", "n1", "2", "4Gi", "Running");

    NodeInfo node = assemble(List.of(reservation, other), List.of()).snapshot().nodes().get(0);

    assertThat(node.used()).isEqualTo(Resource.of("cpu", "2", "memory", "4Gi"));
    assertThat(node.podCount()).isEqualTo(1);
  }

  @Test
  void allocationsAreTasksAlreadyPlacedAndTheirPodsAreNotCountedTwice() {
    V1alpha1TYJob job =
        job(
            "pong",
            """
        "status": {"allocations": {"pong-learner": "n1", "pong-actor-0": "n1"}, "stage": "Running"}""");
    V1Pod leaderPod = pod("rl", "pong-learner", "n1", "2", "4Gi", "Running");
    V1Pod victim = pod("rl", "pong-actor-0", "n1", "1", "1Gi", "Running");
    victim.getMetadata().deletionTimestamp(OffsetDateTime.now());

    SnapshotAssembler.Assembly assembly = assemble(List.of(leaderPod, victim), List.of(job));

    JobInfo info = assembly.snapshot().jobs().get(0);
    assertThat(info.tasks())
        .extracting(TaskInfo::podName, TaskInfo::status, TaskInfo::nodeName)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("pong-learner", TaskStatus.ALLOCATED, "n1"),
            org.assertj.core.groups.Tuple.tuple("pong-actor-0", TaskStatus.RELEASING, "n1"),
            org.assertj.core.groups.Tuple.tuple("pong-actor-1", TaskStatus.PENDING, null));
    NodeInfo node = assembly.snapshot().nodes().get(0);
    assertThat(node.used()).isEqualTo(Resource.EMPTY);
    assertThat(node.podCount()).isZero();
  }

  @Test
  void theControllersStageSaysWhetherTheMinimumHasRun() {
    V1alpha1TYJob running =
        job(
            "running",
            """
        "status": {"stage": "Running"}""");
    V1alpha1TYJob rescheduled =
        job(
            "rescheduled",
            """
        "status": {"stage": "Rescheduling"}""");
    V1alpha1TYJob starting =
        job(
            "starting",
            """
        "status": {"stage": "Starting"}""");

    List<JobInfo> jobs =
        assemble(List.of(), List.of(running, rescheduled, starting)).snapshot().jobs();

    assertThat(jobs)
        .extracting(JobInfo::name, JobInfo::stage, JobInfo::minimumHasRun)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("running", Stage.RUNNING, true),
            org.assertj.core.groups.Tuple.tuple("rescheduled", Stage.RESCHEDULING, false),
            org.assertj.core.groups.Tuple.tuple("starting", Stage.STARTING, false));
  }

  @Test
  void podsNamedAsVictimsAreReleasingAndTheOptOutAndWaitingAreRead() {
    V1alpha1TYJob low =
        job(
            "low",
            """
        "status": {"allocations": {"low-learner": "n1", "low-actor-0": "n1"}}""");
    V1alpha1TYJob high =
        job(
            "high",
            """
        "status": {"scheduling": {"reason": "WaitingForVictims"},
                   "victims": [{"namespace": "rl", "job": "low", "pods": ["low-actor-0"]}]}""");
    high.getMetadata().putAnnotationsItem(TYJobAnnotations.PREEMPTABLE, "false");
    V1Pod victim = pod("rl", "low-actor-0", "n1", "1", "1Gi", "Running");

    List<JobInfo> jobs = assemble(List.of(victim), List.of(low, high)).snapshot().jobs();

    JobInfo lowInfo = jobs.stream().filter(j -> j.name().equals("low")).findFirst().orElseThrow();
    JobInfo highInfo = jobs.stream().filter(j -> j.name().equals("high")).findFirst().orElseThrow();
    assertThat(lowInfo.tasks().get(1).status()).isEqualTo(TaskStatus.RELEASING);
    assertThat(lowInfo.preemptable()).isTrue();
    assertThat(highInfo.preemptable()).isFalse();
    assertThat(highInfo.awaitingVictims()).isTrue();
  }

  @Test
  void theJobCarriesItsSpecAndTheEffectiveRequestOfItsPods() {
    V1alpha1TYJob job =
        job(
            "pong",
            """
        "status": {"scheduling": {"waitingSince": "2026-11-22T10:00:00Z"}}""");
    job.getSpec().getGang().setWaitTime("1h30m");
    job.getSpec()
        .getGang()
        .setMode(io.tyrl.arranger.model.V1alpha1TYJobSpecGang.ModeEnum.NON_STRICT);

    JobInfo info = assemble(List.of(), List.of(job)).snapshot().jobs().get(0);

    assertThat(info.priority()).isEqualTo(7);
    assertThat(info.queue()).isEqualTo("games");
    assertThat(info.minWorkersNum()).isEqualTo(1);
    assertThat(info.gang().mode()).isEqualTo(GangMode.NON_STRICT);
    assertThat(info.gang().waitTime()).isEqualTo(Duration.ofMinutes(90));
    assertThat(info.waitingSince())
        .isEqualTo(OffsetDateTime.parse("2026-11-22T10:00:00Z").toInstant());
    assertThat(info.stage()).isEqualTo(Stage.PENDING);
    // Leader: containers 2 cpu + limit-only 1 GPU, init container 3 cpu wins for cpu.
    assertThat(info.leader().request())
        .isEqualTo(Resource.of("cpu", "3", "memory", "4Gi", "nvidia.com/gpu", "1"));
    assertThat(info.tasks()).hasSize(3);
    assertThat(info.tasks().get(1).constraints().nodeSelector()).containsEntry("pool", "rl");
  }

  @Test
  void endedAndStoppingJobsAreLeftOutAndAnUnreadableOneIsReportedWhileOthersGoOn() {
    V1alpha1TYJob done = job("done", "\"status\": {\"stage\": \"Succeeded\"}");
    V1alpha1TYJob stopping = job("stopping", "\"status\": {}");
    stopping.getSpec().setTerminating(true);
    V1alpha1TYJob broken = job("broken", "\"status\": {}");
    broken.getSpec().getGang().setWaitTime("soon");
    V1alpha1TYJob fine = job("fine", "\"status\": {}");

    SnapshotAssembler.Assembly assembly =
        assemble(List.of(), List.of(done, stopping, broken, fine));

    assertThat(assembly.snapshot().jobs()).extracting(JobInfo::name).containsExactly("fine");
    assertThat(assembly.unreadable())
        .singleElement()
        .satisfies(
            bad -> {
              assertThat(bad.key()).isEqualTo("rl/broken");
              assertThat(bad.problem()).contains("spec.gang.waitTime").contains("soon");
            });
    assertThat(assembly.jobsByKey()).containsOnlyKeys("rl/broken", "rl/fine");
  }

  @Test
  void aPlacedTaskCountsWhereItsPodIsBoundNotWhereItWasAllocated() {
    V1Node second = node("n2");
    V1alpha1TYJob job =
        job(
            "moved",
            """
        "status": {"allocations": {"moved-learner": "n1", "moved-actor-0": "n1"}, "stage": "Running"}""");
    V1Pod leaderOnSecond = pod("rl", "moved-learner", "n2", "3", "4Gi", "Running");

    SnapshotAssembler.Assembly assembly =
        SnapshotAssembler.assemble(
            List.of(node("n1"), second), List.of(leaderOnSecond), List.of(job), List.of());

    assertThat(assembly.snapshot().jobs().get(0).tasks())
        .extracting(TaskInfo::podName, TaskInfo::nodeName)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("moved-learner", "n2"),
            org.assertj.core.groups.Tuple.tuple("moved-actor-0", "n1"),
            org.assertj.core.groups.Tuple.tuple("moved-actor-1", null));
    assertThat(assembly.snapshot().nodes())
        .allSatisfy(node -> assertThat(node.used()).isEqualTo(Resource.EMPTY));
  }

  @Test
  void aPodWhoseAllocationWasReleasedStillUsesItsNode() {
    V1alpha1TYJob job = job("given-back", "\"status\": {\"stage\": \"Rescheduling\"}");
    V1Pod stillThere = pod("rl", "given-back-actor-0", "n1", "1", "1Gi", "Running");
    stillThere.getMetadata().deletionTimestamp(OffsetDateTime.now());

    SnapshotAssembler.Assembly assembly = assemble(List.of(stillThere), List.of(job));

    assertThat(assembly.snapshot().jobs().get(0).tasks())
        .allSatisfy(task -> assertThat(task.status()).isEqualTo(TaskStatus.PENDING));
    NodeInfo node = assembly.snapshot().nodes().get(0);
    assertThat(node.used()).isEqualTo(Resource.of("cpu", "1", "memory", "1Gi"));
    assertThat(node.releasing()).isEqualTo(Resource.of("cpu", "1", "memory", "1Gi"));
  }

  @Test
  void aVictimIsKnownByItsUidSoAPodRecreatedUnderItsNameIsNotLeaving() {
    V1alpha1TYJob preemptor =
        job(
            "urgent",
            """
        "status": {"victims": [{"namespace": "rl", "job": "low", "pods": ["low-actor-0", "low-actor-1"],
                                "podUIDs": ["uid-old-0"]}]}""");
    V1alpha1TYJob victimJob =
        job(
            "low",
            """
        "status": {"allocations": {"low-learner": "n1", "low-actor-0": "n1", "low-actor-1": "n1"}, "stage": "Running"}""");
    V1Pod recreated = pod("rl", "low-actor-0", "n1", "1", "1Gi", "Running");
    recreated.getMetadata().uid("uid-new-0");
    V1Pod stillChosen = pod("rl", "low-actor-1", "n1", "1", "1Gi", "Running");
    stillChosen.getMetadata().uid("uid-old-0");

    List<JobInfo> jobs =
        assemble(List.of(recreated, stillChosen), List.of(preemptor, victimJob)).snapshot().jobs();

    JobInfo low = jobs.stream().filter(j -> j.name().equals("low")).findFirst().orElseThrow();
    assertThat(low.tasks())
        .extracting(TaskInfo::podName, TaskInfo::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("low-learner", TaskStatus.ALLOCATED),
            org.assertj.core.groups.Tuple.tuple("low-actor-0", TaskStatus.ALLOCATED),
            org.assertj.core.groups.Tuple.tuple("low-actor-1", TaskStatus.RELEASING));
  }

  @Test
  void victimsRecordedWithoutUidsAreKnownByName() {
    V1alpha1TYJob preemptor =
        job(
            "urgent",
            """
        "status": {"victims": [{"namespace": "rl", "job": "low", "pods": ["low-actor-0"]}]}""");
    V1alpha1TYJob victimJob =
        job(
            "low",
            """
        "status": {"allocations": {"low-actor-0": "n1"}, "stage": "Running"}""");

    List<JobInfo> jobs =
        assemble(
                List.of(pod("rl", "low-actor-0", "n1", "1", "1Gi", "Running")),
                List.of(preemptor, victimJob))
            .snapshot()
            .jobs();

    assertThat(
            jobs.stream()
                .filter(j -> j.name().equals("low"))
                .findFirst()
                .orElseThrow()
                .tasks()
                .get(1)
                .status())
        .isEqualTo(TaskStatus.RELEASING);
  }

  @Test
  void anUndecodableJobIsReportedWithItsFieldAndKeptForItsStatusWhileOthersAreScheduled() {
    TYJobDecoder decoder = new TYJobDecoder(JSON.getGson());
    com.google.gson.JsonObject raw =
        JSON.getGson().toJsonTree(job("bad", "\"status\": {}")).getAsJsonObject();
    raw.getAsJsonObject("spec")
        .getAsJsonObject("leader")
        .getAsJsonObject("template")
        .getAsJsonObject("spec")
        .remove("containers");

    SnapshotAssembler.Assembly assembly =
        SnapshotAssembler.assembleDecoded(
            List.of(node("n1")),
            List.of(),
            List.of(
                decoder.decode(raw),
                new TYJobDecoder.Decoded(
                    job("good", "\"status\": {}"), java.util.Optional.empty())),
            List.of(),
            java.time.Instant.parse("2026-11-25T12:00:00Z"));

    assertThat(assembly.snapshot().jobs()).extracting(JobInfo::name).containsExactly("good");
    assertThat(assembly.unreadable())
        .singleElement()
        .satisfies(
            bad ->
                assertThat(bad.problem())
                    .startsWith("spec.leader.template")
                    .contains("containers"));
    assertThat(assembly.jobsByKey()).containsKeys("rl/bad", "rl/good");
  }

  @Test
  void aJobOutOfTheSharedBoundsIsReportedBeforeOneTaskPerWorkerIsMade() {
    V1alpha1TYJob huge = job("huge", "\"status\": {}");
    huge.getSpec().getWorkerSets().get(0).setCounts(Integer.MAX_VALUE);

    SnapshotAssembler.Assembly assembly =
        assemble(List.of(), List.of(huge, job("fine", "\"status\": {}")));

    assertThat(assembly.snapshot().jobs()).extracting(JobInfo::name).containsExactly("fine");
    assertThat(assembly.unreadable())
        .singleElement()
        .satisfies(
            bad ->
                assertThat(bad.problem())
                    .startsWith("spec.workerSets[0].counts: ")
                    .contains("2147483647"));
  }

  private static V1Node node(String name) {
    return JSON.deserialize(
        """
        {"metadata": {"name": "%s"},
         "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"},
                    "conditions": [{"type": "Ready", "status": "True"}]}}"""
            .formatted(name),
        V1Node.class);
  }

  private static SnapshotAssembler.Assembly assemble(List<V1Pod> pods, List<V1alpha1TYJob> jobs) {
    V1Node node =
        JSON.deserialize(
            """
        {"metadata": {"name": "n1", "labels": {"pool": "rl"}},
         "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110", "nvidia.com/gpu": "8"},
                    "conditions": [{"type": "Ready", "status": "True"}]}}""",
            V1Node.class);
    V1alpha1Queue queue =
        JSON.deserialize(
            "{\"metadata\": {\"name\": \"games\"}, \"spec\": {\"weight\": 2}}",
            V1alpha1Queue.class);
    return SnapshotAssembler.assemble(List.of(node), pods, jobs, List.of(queue));
  }

  private static V1Pod pod(
      String namespace, String name, String node, String cpu, String memory, String phase) {
    V1PodSpec spec =
        new V1PodSpec()
            .nodeName(node)
            .addContainersItem(
                new V1Container()
                    .name("main")
                    .resources(
                        new V1ResourceRequirements()
                            .requests(
                                Map.of(
                                    "cpu",
                                    Quantity.fromString(cpu),
                                    "memory",
                                    Quantity.fromString(memory)))));
    return new V1Pod()
        .metadata(new V1ObjectMeta().namespace(namespace).name(name))
        .spec(spec)
        .status(new V1PodStatus().phase(phase));
  }

  private static V1alpha1TYJob job(String name, String status) {
    return JSON.deserialize(
        """
        {"metadata": {"namespace": "rl", "name": "%s", "uid": "uid-%s", "creationTimestamp": "2026-11-22T09:00:00Z"},
         "spec": {"priority": 7, "queue": "games", "minWorkersNum": 1, "gang": {"mode": "Strict"},
           "leader": {"name": "learner", "template": {"spec": {
             "initContainers": [{"name": "fetch", "resources": {"requests": {"cpu": "3"}}}],
             "containers": [{"name": "learner", "resources": {"requests": {"cpu": "2", "memory": "4Gi"},
                                                             "limits": {"nvidia.com/gpu": "1"}}}]}}},
           "workerSets": [{"name": "actor", "counts": 2, "template": {"spec": {"nodeSelector": {"pool": "rl"},
             "containers": [{"name": "actor", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}}]},
         %s}"""
            .formatted(name, name, status),
        V1alpha1TYJob.class);
  }
}
