package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The other half of a kubelet refusal (the controller's half is KubeletRefusalIT): a node the
 * controller recorded in a job's {@code status.avoidNodes} is not chosen for that job while the
 * entry lasts, and a job that fits nowhere else says why, naming the node and until when.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerAvoidedNodeIT {

  @Test
  void aNodeThatRefusedTheJobsPodIsNotChosenOnItsNextPlacementAndTheReasonSaysUntilWhen(
      ControlPlane controlPlane, ApiClient client, SimulatedNodes nodes) throws Exception {
    String test = ClusterFixtures.unique("avoid");
    String namespace = ClusterFixtures.namespace(client, "avoid");
    String refused = test + "-refused";
    String other = test + "-other";
    nodes.register(
        NodeSpec.named(refused).cpu("8").memory("32Gi").label("arranger-test", test).build());
    nodes.register(
        NodeSpec.named(other).cpu("8").memory("32Gi").label("arranger-test", test).build());
    Instant until = Instant.now().plus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
    // Placed on the refused node first, as the allocation the controller gave back says; then
    // refused there.
    TYJobBuilder.named("again")
        .namespace(namespace)
        .leader("learner", "2", "1Gi")
        .workers("actor", 1, "2", "1Gi")
        .nodeSelector("arranger-test", test)
        .create(client);
    avoid(client, namespace, "again", refused, until);
    // A job whose every node is to be avoided.
    TYJobBuilder.named("cornered")
        .namespace(namespace)
        .leader("learner", "2", "1Gi")
        .workers("actor", 1, "2", "1Gi")
        .nodeSelector("arranger-test", test)
        .set("minWorkersNum", 1)
        .create(client);
    avoid(client, namespace, "cornered", refused, until);
    avoid(client, namespace, "cornered", other, until);

    try (SchedulerInstance scheduler =
        SchedulerInstance.start(
            controlPlane, "scheduler-" + test, "lease-" + test, "config-" + test, Map.of())) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () -> {
                V1alpha1TYJob again = job(client, namespace, "again");
                assertThat(again.getStatus().getAllocations())
                    .hasSize(2)
                    .doesNotContainValue(refused);
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .untilAsserted(
              () -> {
                V1alpha1TYJob cornered = job(client, namespace, "cornered");
                assertThat(cornered.getStatus().getScheduling().getReason())
                    .isEqualTo("Unschedulable");
                assertThat(cornered.getStatus().getScheduling().getMessage())
                    .contains(
                        "node(s) where the kubelet refused this job's pod ("
                            + refused
                            + ": OutOfcpu), avoided until "
                            + until);
                assertThat(cornered.getStatus().getAllocations()).isNullOrEmpty();
              });
    }
  }

  /**
   * As the controller: the node refused a pod of the job ({@code status.avoidNodes}, one entry
   * more).
   */
  private static void avoid(
      ApiClient client, String namespace, String job, String node, Instant until) throws Exception {
    V1alpha1TYJob current = job(client, namespace, job);
    StringBuilder entries = new StringBuilder();
    if (current.getStatus() != null && current.getStatus().getAvoidNodes() != null) {
      current
          .getStatus()
          .getAvoidNodes()
          .forEach(
              entry ->
                  entries
                      .append("{\"node\": \"")
                      .append(entry.getNode())
                      .append("\", \"reason\": \"OutOfcpu\", \"until\": \"")
                      .append(entry.getUntil().toInstant())
                      .append("\"},"));
    }
    String patch =
        "{\"status\": {\"avoidNodes\": [%s{\"node\": \"%s\", \"reason\": \"OutOfcpu\", \"until\": \"%s\"}]}}"
            .formatted(entries, node, until);
    CustomObjectsApi custom = new CustomObjectsApi(client);
    PatchUtils.patch(
        Object.class,
        () ->
            custom
                .patchNamespacedCustomObjectStatus(
                    ArrangerResources.GROUP,
                    ArrangerResources.VERSION,
                    namespace,
                    ArrangerResources.TYJOBS,
                    job,
                    new V1Patch(patch))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }

  private static V1alpha1TYJob job(ApiClient client, String namespace, String name)
      throws Exception {
    return ClusterFixtures.jobs(client, namespace).stream()
        .filter(j -> j.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
