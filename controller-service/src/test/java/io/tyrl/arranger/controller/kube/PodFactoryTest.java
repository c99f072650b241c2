package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.plan.PodEnvironment;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PodFactoryTest {

  private final PodFactory factory = new PodFactory();
  private final JobSnapshot job = new JobViewMapper().map(RawTYJobs.job(RawTYJobs.validSpec()));

  @Test
  void workerPodIsPlacedLabelledOwnedAndToldItsLeader() {
    PodSlot.Worker slot = new PodSlot.Worker("train-actor-1", "actor", 1);
    V1Pod pod =
        factory.build(
            job,
            new PlannedAction.CreatePod(
                slot, "node-b", PodEnvironment.forWorker("train", slot, "10.1.2.3")));

    assertThat(pod.getMetadata().getName()).isEqualTo("train-actor-1");
    assertThat(pod.getMetadata().getNamespace()).isEqualTo("rl");
    assertThat(pod.getMetadata().getLabels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "team", "rl",
                "arranger.tyrl.io/job-name", "train",
                "arranger.tyrl.io/role", "worker",
                "arranger.tyrl.io/worker-set", "actor",
                "arranger.tyrl.io/worker-index", "1"));
    assertThat(pod.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getApiVersion()).isEqualTo("arranger.tyrl.io/v1alpha1");
              assertThat(owner.getKind()).isEqualTo("TYJob");
              assertThat(owner.getName()).isEqualTo("train");
              assertThat(owner.getUid()).isEqualTo("uid-1");
              assertThat(owner.getController()).isTrue();
              assertThat(owner.getBlockOwnerDeletion()).isTrue();
            });
    assertThat(pod.getSpec().getNodeName()).isEqualTo("node-b");
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getVolumes())
        .extracting(V1Volume::getName)
        .containsExactly("scratch", "shared");
    V1Container container = pod.getSpec().getContainers().get(0);
    assertThat(env(container))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "KEEP", "1",
                "TYJOB_LEADER_ADDR", "10.1.2.3",
                "TYJOB_NAME", "train",
                "TYJOB_ROLE", "worker",
                "TYJOB_WORKER_SET", "actor",
                "TYJOB_WORKER_INDEX", "1"));
  }

  @Test
  void aPodSharingAGpuIsToldItsDevicesIdAndCarriesItsSeat() {
    PodSlot.Worker slot = new PodSlot.Worker("train-actor-0", "actor", 0);

    V1Pod pod =
        factory.build(
            job,
            new PlannedAction.CreatePod(
                slot, "node-b", PodEnvironment.forWorker("train", slot, "10.1.2.3")),
            new GpuShareReservations.Device.Ready(2, "GPU-8983c66a"));

    assertThat(env(pod.getSpec().getContainers().get(0)))
        .containsEntry("NVIDIA_VISIBLE_DEVICES", "GPU-8983c66a");
    assertThat(pod.getMetadata().getAnnotations())
        .containsEntry("arranger.tyrl.io/gpu-device", "2")
        .containsEntry("arranger.tyrl.io/gpu-device-id", "GPU-8983c66a");
    assertThat(
            env(
                factory
                    .build(
                        job,
                        new PlannedAction.CreatePod(
                            slot, "node-b", PodEnvironment.forWorker("train", slot, "10.1.2.3")))
                    .getSpec()
                    .getContainers()
                    .get(0)))
        .as("a pod that shares no GPU")
        .doesNotContainKey("NVIDIA_VISIBLE_DEVICES");
  }

  @Test
  void podIsSentWithoutAnOverheadAndLeavesTheCachedTemplateUntouched() {
    PodSlot.Leader slot = new PodSlot.Leader("train-learner", "learner");
    String templateBefore = JSON.serialize(job.leaderTemplate().orElseThrow());

    V1Pod pod =
        factory.build(
            job, new PlannedAction.CreatePod(slot, "node-a", PodEnvironment.forLeader("train")));

    JsonObject sent = JSON.getGson().toJsonTree(pod).getAsJsonObject();
    assertThat(sent.getAsJsonObject("spec").has("overhead")).isFalse();
    assertThat(pod.getMetadata().getLabels())
        .containsEntry("arranger.tyrl.io/role", "leader")
        .doesNotContainKey("arranger.tyrl.io/worker-set");
    assertThat(env(pod.getSpec().getContainers().get(0)))
        .containsEntry("TYJOB_ROLE", "leader")
        .doesNotContainKey("TYJOB_LEADER_ADDR");
    assertThat(JSON.serialize(job.leaderTemplate().orElseThrow())).isEqualTo(templateBefore);
  }

  @Test
  void theCreateSendsThePodAsClientJavaWouldWriteItToThePodsOfItsNamespace() throws Exception {
    PodSlot.Worker slot = new PodSlot.Worker("train-actor-0", "actor", 0);
    V1Pod pod =
        factory.build(
            job,
            new PlannedAction.CreatePod(
                slot, "node-b", PodEnvironment.forWorker("train", slot, "10.1.2.3")));
    io.kubernetes.client.openapi.ApiClient client =
        new io.kubernetes.client.openapi.ApiClient().setBasePath("https://api.example:6443");

    okhttp3.Request request = PodCreateCall.of(client, "rl team", pod).request();

    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.url().toString())
        .isEqualTo("https://api.example:6443/api/v1/namespaces/rl%20team/pods");
    assertThat(request.header("Content-Type")).startsWith("application/json");
    okio.Buffer body = new okio.Buffer();
    request.body().writeTo(body);
    assertThat(com.google.gson.JsonParser.parseString(body.readUtf8()))
        .isEqualTo(com.google.gson.JsonParser.parseString(JSON.serialize(pod)));
  }

  private static Map<String, String> env(V1Container container) {
    return container.getEnv().stream()
        .collect(Collectors.toMap(V1EnvVar::getName, V1EnvVar::getValue));
  }
}
