package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecGang;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class TYJobDefaultsIT {

  @Test
  void apiServerFillsInTheCrdSchemaDefaults(ApiClient client) throws Exception {
    String name = TYJobFixtures.uniqueName("defaults");
    Map<String, Object> body = TYJobFixtures.minimalTyJob(name);
    assertThat(TYJobFixtures.spec(body)).containsOnlyKeys("leader", "workerSets");

    new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            body)
        .execute();
    V1alpha1TYJob job =
        ArrangerResources.tyJobs(client).get("default", name).throwsApiException().getObject();

    V1alpha1TYJobSpec spec = job.getSpec();
    assertThat(spec.getRestartLimit()).isEqualTo(3);
    assertThat(spec.getCleanPodPolicy()).isEqualTo(V1alpha1TYJobSpec.CleanPodPolicyEnum.ALL);
    assertThat(spec.getMinWorkersNum()).isEqualTo(1);
    assertThat(spec.getPriority()).isEqualTo(5);
    assertThat(spec.getTerminating()).isFalse();
    assertThat(spec.getWorkerSets())
        .singleElement()
        .satisfies(set -> assertThat(set.getCounts()).isEqualTo(1));
    assertThat(spec.getQueue()).isEqualTo("default");
    assertThat(spec.getGang().getMode()).isEqualTo(V1alpha1TYJobSpecGang.ModeEnum.STRICT);
    assertThat(spec.getLeader().getTemplate().getSpec().getContainers())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.getResources().getRequests().get("cpu").getNumber())
                    .isEqualByComparingTo("1"));
  }

  @Test
  void rawStoredObjectCarriesTheDefaultsItself(ApiClient client) throws Exception {
    String name = TYJobFixtures.uniqueName("stored");
    CustomObjectsApi api = new CustomObjectsApi(client);
    api.createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            TYJobFixtures.minimalTyJob(name))
        .execute();

    @SuppressWarnings("unchecked")
    Map<String, Object> stored =
        (Map<String, Object>)
            api.getNamespacedCustomObject(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    "default",
                    ArrangerResources.TYJOBS,
                    name)
                .execute();

    assertThat(TYJobFixtures.spec(stored))
        .containsEntry("restartLimit", 3.0)
        .containsEntry("cleanPodPolicy", "All")
        .containsEntry("minWorkersNum", 1.0)
        .containsEntry("priority", 5.0)
        .containsEntry("terminating", false);
  }
}
