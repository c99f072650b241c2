package io.tyrl.arranger.kube.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.util.CallGeneratorParams;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * client-java's informer over {@link ModelListerWatcher}, on a real API server: list, then every
 * change watched.
 */
@ExtendWith(KubeApiServerExtension.class)
class ModelListerWatcherIT {

  @Test
  void anInformerListsWhatExistsThenSeesPodsAddedChangedAndDeleted(ControlPlane controlPlane)
      throws Exception {
    ApiClient client = controlPlane.adminClient();
    CoreV1Api core = new CoreV1Api(client);
    String namespace = "model-watch-" + UUID.randomUUID().toString().substring(0, 6);
    core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
    core.createNamespacedPod(namespace, pod("before")).execute();

    ApiClient informerClient = controlPlane.adminClient();
    informerClient.setHttpClient(
        informerClient.getHttpClient().newBuilder().readTimeout(0, TimeUnit.MILLISECONDS).build());
    CoreV1Api informerCore = new CoreV1Api(informerClient);
    SharedInformerFactory factory = new SharedInformerFactory(informerClient);
    List<String> seen = new CopyOnWriteArrayList<>();
    SharedIndexInformer<V1Pod> informer =
        factory.sharedIndexInformerFor(
            new ModelListerWatcher<>(
                params ->
                    informerCore
                        .listNamespacedPod(namespace)
                        .labelSelector("app=model-watch")
                        .resourceVersion(params.resourceVersion)
                        .watch(params.watch)
                        .timeoutSeconds(params.timeoutSeconds)
                        .buildCall(null),
                V1Pod.class,
                V1PodList.class),
            V1Pod.class,
            0);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(V1Pod pod) {
            seen.add("add " + pod.getMetadata().getName() + " " + pod.getSpec().getNodeName());
          }

          @Override
          public void onUpdate(V1Pod before, V1Pod after) {
            seen.add(
                "update "
                    + after.getMetadata().getName()
                    + " "
                    + after.getMetadata().getLabels().get("step"));
          }

          @Override
          public void onDelete(V1Pod pod, boolean finalStateUnknown) {
            seen.add("delete " + pod.getMetadata().getName());
          }
        });
    factory.startAllRegisteredInformers();
    try {
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
      assertThat(seen).containsExactly("add before node-a");

      core.createNamespacedPod(namespace, pod("after")).execute();
      V1Pod after = core.readNamespacedPod("after", namespace).execute();
      after.getMetadata().putLabelsItem("step", "two");
      core.replaceNamespacedPod("after", namespace, after).execute();
      core.deleteNamespacedPod("before", namespace).gracePeriodSeconds(0).execute();
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("delete before"));
      // The deletion may show first as an update that sets the pod's deletionTimestamp.
      assertThat(seen)
          .startsWith("add before node-a", "add after node-a", "update after two")
          .endsWith("delete before");
      assertThat(informer.getIndexer().list())
          .singleElement()
          .satisfies(pod -> assertThat(pod.getMetadata().getLabels()).containsEntry("step", "two"));
    } finally {
      factory.stopAllRegisteredInformers();
    }
  }

  @Test
  void aListTheApiServerRefusesIsAnApiExceptionWithItsCodeAndBody(ControlPlane controlPlane) {
    ApiClient client =
        new io.kubernetes.client.util.ClientBuilder()
            .setBasePath(controlPlane.url())
            .setVerifyingSsl(false)
            .setAuthentication(
                new io.kubernetes.client.util.credentials.AccessTokenAuthentication("not-a-token"))
            .build();
    CoreV1Api core = new CoreV1Api(client);
    ModelListerWatcher<V1Pod, V1PodList> pods =
        new ModelListerWatcher<>(
            params ->
                core.listPodForAllNamespaces()
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .buildCall(null),
            V1Pod.class,
            V1PodList.class);
    assertThatThrownBy(() -> pods.list(new CallGeneratorParams(false, "0", null)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(401);
              assertThat(e.getMessage()).contains("list of V1Pod");
            });
    assertThatThrownBy(() -> pods.watch(new CallGeneratorParams(true, "0", 5)))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(401));
  }

  private static V1Pod pod(String name) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).labels(Map.of("app", "model-watch")))
        .spec(
            new V1PodSpec()
                .nodeName("node-a")
                .overhead(null)
                .containers(List.of(new V1Container().name("c").image("i"))));
  }
}
