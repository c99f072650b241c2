package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1CustomResourceColumnDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionVersion;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1QueueList;
import io.tyrl.arranger.model.V1alpha1TYJobList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class ArrangerCrdsIT {

  @Test
  void tyJobCrdIsEstablishedNamespacedWithStatusAndPrinterColumns(ApiClient client)
      throws Exception {
    V1CustomResourceDefinition crd =
        new ApiextensionsV1Api(client)
            .readCustomResourceDefinition("tyjobs.arranger.tyrl.io")
            .execute();

    assertThat(CustomResourceDefinitions.isEstablished(crd)).isTrue();
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("tyj");
    V1CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
    assertThat(version.getName()).isEqualTo("v1alpha1");
    assertThat(version.getSubresources().getStatus()).isNotNull();
    assertThat(version.getAdditionalPrinterColumns())
        .extracting(V1CustomResourceColumnDefinition::getName)
        .contains("Stage", "Queue", "Workers", "Schedule", "Reason", "Nodes", "Age");
  }

  @Test
  void queueCrdIsEstablishedClusterScoped(ApiClient client) throws Exception {
    V1CustomResourceDefinition crd =
        new ApiextensionsV1Api(client)
            .readCustomResourceDefinition("queues.arranger.tyrl.io")
            .execute();

    assertThat(CustomResourceDefinitions.isEstablished(crd)).isTrue();
    assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("tyq");
    assertThat(crd.getSpec().getVersions().get(0).getSubresources().getStatus()).isNotNull();
  }

  @Test
  void bothKindsAreServedThroughTheGeneratedModel(ApiClient client) throws Exception {
    V1alpha1TYJobList jobs =
        ArrangerResources.tyJobs(client).list("default").throwsApiException().getObject();
    V1alpha1QueueList queues =
        ArrangerResources.queues(client).list().throwsApiException().getObject();

    assertThat(jobs.getKind()).isEqualTo("TYJobList");
    assertThat(queues.getKind()).isEqualTo("QueueList");
  }

  /**
   * A job stored with no status — every job the controller had not written yet when the stage got
   * its default — reads Pending; a stored stage keeps its value, and reads Pending again once it is
   * removed. The API server applies the schema's default when it reads the object, so nothing
   * stored has to change.
   */
  @Test
  void aStoredJobWithoutAStageReadsPendingAndAStoredStageKeepsItsValue(ApiClient client)
      throws Exception {
    TYJobBuilder.named("stored-before")
        .namespace("default")
        .leader("learner", "1", "1Gi")
        .workers("actor", 1, "1", "1Gi")
        .create(client);
    CustomObjectsApi api = new CustomObjectsApi(client);

    assertThat(stage(api)).isEqualTo("Pending");

    patchStage(client, api, "\"Running\"");
    assertThat(stage(api)).isEqualTo("Running");

    patchStage(client, api, "null");
    assertThat(stage(api)).isEqualTo("Pending");
  }

  private static void patchStage(ApiClient client, CustomObjectsApi api, String stage)
      throws Exception {
    MergePatch.apply(
        Object.class,
        client,
        "{\"status\":{\"stage\":" + stage + "}}",
        patch ->
            api.patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    "default",
                    ArrangerResources.TYJOBS,
                    "stored-before",
                    patch)
                .buildCall(null));
  }

  @SuppressWarnings("unchecked")
  private static String stage(CustomObjectsApi api) throws Exception {
    Map<String, Object> job =
        (Map<String, Object>)
            api.getNamespacedCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    "default",
                    ArrangerResources.TYJOBS,
                    "stored-before")
                .execute();
    Map<String, Object> status = (Map<String, Object>) job.get("status");
    return status == null ? null : (String) status.get("stage");
  }
}
