package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class TYJobStatusPatchIT {

  private static final String STATUS_PATCH =
      """
      {"status": {"stage": "Running", "allocations": {"%1$s-learner": "node-1", "%1$s-actor-0": "node-2"}},
       "spec": {"priority": 9}}""";

  @Test
  void mergePatchOnStatusSetsStatusAndLeavesSpecUntouched(ApiClient client) throws Exception {
    String name = createJob(client);
    V1alpha1TYJob before =
        ArrangerResources.tyJobs(client).get("default", name).throwsApiException().getObject();

    V1alpha1TYJob patched =
        PatchUtils.patch(
            V1alpha1TYJob.class,
            () -> statusPatchCall(client, name),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            client);

    assertThat(patched.getStatus().getStage()).isEqualTo(V1alpha1TYJobStatus.StageEnum.RUNNING);
    assertThat(patched.getStatus().getAllocations())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(name + "-learner", "node-1", name + "-actor-0", "node-2"));
    V1alpha1TYJob reread =
        ArrangerResources.tyJobs(client).get("default", name).throwsApiException().getObject();
    assertThat(reread.getSpec()).isEqualTo(before.getSpec());
    assertThat(reread.getSpec().getPriority()).isEqualTo(5);
    assertThat(reread.getMetadata().getGeneration())
        .isEqualTo(before.getMetadata().getGeneration());
    assertThat(reread.getStatus().getAllocations()).hasSize(2);
  }

  /**
   * A status stored before {@code status.gpuDevices} existed keeps its meaning: its allocations
   * read as before and it records no seat. Seats then come and go key by key beside the
   * allocations, and the schema refuses an index below 0.
   */
  @Test
  void aStatusStoredBeforeGpuDeviceSeatsKeepsItsAllocationsAndGainsSeatsKeyByKey(ApiClient client)
      throws Exception {
    String name = createJob(client);
    patchStatus(client, name, STATUS_PATCH.formatted(name));

    V1alpha1TYJobStatus stored = read(client, name).getStatus();
    assertThat(stored.getGpuDevices()).isNull();
    assertThat(stored.getAllocations()).hasSize(2);

    patchStatus(
        client, name, "{\"status\": {\"gpuDevices\": {\"%s-actor-0\": 1}}}".formatted(name));
    V1alpha1TYJobStatus seated = read(client, name).getStatus();
    assertThat(seated.getGpuDevices()).containsExactlyEntriesOf(Map.of(name + "-actor-0", 1));
    assertThat(seated.getAllocations()).isEqualTo(stored.getAllocations());

    patchStatus(
        client, name, "{\"status\": {\"gpuDevices\": {\"%s-actor-0\": null}}}".formatted(name));
    V1alpha1TYJobStatus given = read(client, name).getStatus();
    assertThat(given.getGpuDevices() == null || given.getGpuDevices().isEmpty()).isTrue();

    ApiException refused =
        catchThrowableOfType(
            ApiException.class,
            () ->
                patchStatus(
                    client,
                    name,
                    "{\"status\": {\"gpuDevices\": {\"%s-actor-0\": -1}}}".formatted(name)));
    assertThat(refused).isNotNull();
    assertThat(refused.getCode()).isEqualTo(422);
  }

  /**
   * A status stored before {@code status.topologyDomains} existed keeps its meaning: it records no
   * domain. Domains then come and go level by level beside the allocations, and the schema refuses
   * a domain longer than a label value may be.
   */
  @Test
  void aStatusStoredBeforeTopologyDomainsRecordsNoneAndGainsThemLevelByLevel(ApiClient client)
      throws Exception {
    String name = createJob(client);
    patchStatus(client, name, STATUS_PATCH.formatted(name));

    V1alpha1TYJobStatus stored = read(client, name).getStatus();
    assertThat(stored.getTopologyDomains()).isNull();

    patchStatus(
        client,
        name,
        "{\"status\": {\"topologyDomains\": {\"example.com/rack\": \"r7\","
            + " \"topology.kubernetes.io/zone\": \"z1\"}}}");
    V1alpha1TYJobStatus placed = read(client, name).getStatus();
    assertThat(placed.getTopologyDomains())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("example.com/rack", "r7", "topology.kubernetes.io/zone", "z1"));
    assertThat(placed.getAllocations()).isEqualTo(stored.getAllocations());

    patchStatus(
        client,
        name,
        "{\"status\": {\"topologyDomains\": {\"topology.kubernetes.io/zone\": null}}}");
    assertThat(read(client, name).getStatus().getTopologyDomains())
        .containsExactlyEntriesOf(Map.of("example.com/rack", "r7"));

    ApiException refused =
        catchThrowableOfType(
            ApiException.class,
            () ->
                patchStatus(
                    client,
                    name,
                    "{\"status\": {\"topologyDomains\": {\"example.com/rack\": \"%s\"}}}"
                        .formatted("r".repeat(64))));
    assertThat(refused).isNotNull();
    assertThat(refused.getCode()).isEqualTo(422);
  }

  @Test
  void generatedPatchCallSendsPlainJsonAndIsRefused(ApiClient client) throws Exception {
    String name = createJob(client);

    ApiException refused =
        catchThrowableOfType(ApiException.class, () -> statusPatchRequest(client, name).execute());

    assertThat(refused).isNotNull();
    assertThat(refused.getCode()).isEqualTo(415);
  }

  private static String createJob(ApiClient client) throws ApiException {
    String name = TYJobFixtures.uniqueName("status");
    new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            TYJobFixtures.minimalTyJob(name))
        .execute();
    return name;
  }

  private static V1alpha1TYJob read(ApiClient client, String name) throws ApiException {
    return ArrangerResources.tyJobs(client).get("default", name).throwsApiException().getObject();
  }

  private static void patchStatus(ApiClient client, String name, String body) throws ApiException {
    PatchUtils.patch(
        V1alpha1TYJob.class,
        () ->
            new CustomObjectsApi(client)
                .patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    "default",
                    ArrangerResources.TYJOBS,
                    name,
                    new V1Patch(body))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  private static okhttp3.Call statusPatchCall(ApiClient client, String name) throws ApiException {
    return statusPatchRequest(client, name).buildCall(null);
  }

  private static CustomObjectsApi.APIpatchNamespacedCustomObjectStatusRequest statusPatchRequest(
      ApiClient client, String name) {
    return new CustomObjectsApi(client)
        .patchNamespacedCustomObjectStatus(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            name,
            new V1Patch(STATUS_PATCH.formatted(name)));
  }
}
