package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spec.topology} on the real API server: the CRD stores it (a structural schema would prune
 * a field it does not declare), the scheduler reads it back, and the core then keeps the job's gang
 * in one rack of a labelled cluster.
 */
@ExtendWith(KubeApiServerExtension.class)
class TopologyIT {

  private static final String RACK = "example.com/rack";
  private static final String HOST = "kubernetes.io/hostname";

  private ApiClient client;

  @BeforeEach
  void start(ApiClient client) {
    this.client = client;
  }

  @Test
  void aStoredJobsTopologyIsReadAndItsGangLandsInOneRack() throws Exception {
    String name = "topo-" + UUID.randomUUID().toString().substring(0, 8);
    createTyJob(name, true);

    JsonObject stored = storedTyJob(name);
    JsonObject spec = stored.getAsJsonObject("spec");
    assertThat(spec.getAsJsonObject("topology").get("required").getAsString()).isEqualTo(RACK);
    JobInfo job = readTyJob(stored);

    assertThat(job.topology()).isEqualTo(new TopologyRequest(RACK, HOST));
    assertThat(job.workerSetTopology()).containsEntry("actor", new TopologyRequest(null, null));

    // Two racks of three 8-GPU nodes; r1 has 16 GPUs free, r2 24: three 8-GPU actors fill r2.
    List<NodeInfo> nodes = new ArrayList<>();
    for (String rack : List.of("r1", "r2")) {
      for (int i = 1; i <= 3; i++) {
        String node = rack + "-n" + i;
        nodes.add(
            new NodeInfo(
                node,
                Map.of(RACK, rack, HOST, node),
                List.of(),
                Resource.of("cpu", "32", "memory", "128Gi", "nvidia.com/gpu", "8", "pods", "110"),
                rack.equals("r1") && i == 1 ? Resource.of("nvidia.com/gpu", "8") : Resource.EMPTY,
                Resource.EMPTY,
                true,
                false,
                0));
      }
    }
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    SchedulerConfiguration configuration =
        DefaultSchedulerConfiguration.parse(scheduler.vocabulary())
            .withTopologyLevels(new TopologyLevels(List.of(RACK, HOST)));
    CycleResult result =
        scheduler.runCycle(
            new Snapshot(nodes, List.of(job), List.of()), configuration, Instant.now());

    Map<String, String> placed = result.decision(job.key()).allocations();
    assertThat(placed).hasSize(4);
    Set<String> racks = new HashSet<>();
    placed.values().forEach(node -> racks.add(node.substring(0, 2)));
    assertThat(racks).containsExactly("r2");
  }

  /**
   * A TYJob written as before {@code spec.topology} existed is stored without it (the CRD gives it
   * no default), read with no topology for the job or its worker sets, and placed as before: with
   * levels configured, its gang may still span racks.
   */
  @Test
  void aJobStoredWithoutTopologyKeepsItsMeaning() throws Exception {
    String name = "old-" + UUID.randomUUID().toString().substring(0, 8);
    createTyJob(name, false);

    JsonObject stored = storedTyJob(name);
    assertThat(stored.getAsJsonObject("spec").keySet()).doesNotContain("topology");
    assertThat(
            stored
                .getAsJsonObject("spec")
                .getAsJsonArray("workerSets")
                .get(0)
                .getAsJsonObject()
                .keySet())
        .doesNotContain("topology");
    JobInfo job = readTyJob(stored);
    assertThat(job.topology()).isEqualTo(TopologyRequest.NONE);
    assertThat(job.workerSetTopology()).isEmpty();

    // Two racks of one 8-GPU node each: three 8-GPU actors and the learner fit only across both.
    List<NodeInfo> nodes = new ArrayList<>();
    for (String rack : List.of("r1", "r2")) {
      for (int i = 1; i <= 2; i++) {
        String node = rack + "-n" + i;
        nodes.add(
            new NodeInfo(
                node,
                Map.of(RACK, rack, HOST, node),
                List.of(),
                Resource.of("cpu", "32", "memory", "128Gi", "nvidia.com/gpu", "8", "pods", "110"),
                Resource.EMPTY,
                Resource.EMPTY,
                true,
                false,
                0));
      }
    }
    Scheduler scheduler =
        new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
    SchedulerConfiguration configuration =
        DefaultSchedulerConfiguration.parse(scheduler.vocabulary())
            .withTopologyLevels(new TopologyLevels(List.of(RACK, HOST)));
    CycleResult result =
        scheduler.runCycle(
            new Snapshot(nodes, List.of(job), List.of()), configuration, Instant.now());

    Set<String> racks = new HashSet<>();
    result.decision(job.key()).allocations().values().forEach(n -> racks.add(n.substring(0, 2)));
    assertThat(result.decision(job.key()).allocations()).hasSize(4);
    assertThat(racks).containsExactlyInAnyOrder("r1", "r2");
  }

  @SuppressWarnings("unchecked")
  private void createTyJob(String name, boolean withTopology) throws ApiException {
    Map<String, Object> container =
        Map.of(
            "name",
            "c",
            "image",
            "busybox",
            "resources",
            Map.of("requests", Map.of("cpu", "1", "nvidia.com/gpu", "8")));
    Map<String, Object> leaderTemplate =
        Map.of(
            "spec",
            Map.of(
                "containers",
                List.of(
                    Map.of(
                        "name",
                        "l",
                        "image",
                        "busybox",
                        "resources",
                        Map.of("requests", Map.of("cpu", "1"))))));
    Map<String, Object> actors = new HashMap<>();
    actors.put("name", "actor");
    actors.put("counts", 3);
    actors.put("template", Map.of("spec", Map.of("containers", List.of(container))));
    Map<String, Object> job = new HashMap<>();
    job.put("apiVersion", ArrangerResources.API_VERSION);
    job.put("kind", ArrangerResources.TYJOB_KIND);
    job.put("metadata", Map.of("name", name));
    job.put(
        "spec",
        new HashMap<>(
            Map.of(
                "leader",
                Map.of("name", "learner", "template", leaderTemplate),
                "workerSets",
                List.of(actors),
                "minWorkersNum",
                3)));
    if (withTopology) {
      actors.put("topology", Map.of());
      ((Map<String, Object>) job.get("spec"))
          .put("topology", Map.of("required", RACK, "preferred", HOST));
    }
    new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            job)
        .execute();
  }

  private JsonObject storedTyJob(String name) throws ApiException {
    Object raw =
        new CustomObjectsApi(client)
            .getNamespacedCustomObject(
                ArrangerResources.GROUP,
                ArrangerResources.VERSION,
                "default",
                ArrangerResources.TYJOBS,
                name)
            .execute();
    return client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
  }

  private JobInfo readTyJob(JsonObject stored) {
    V1alpha1TYJob job = client.getJSON().getGson().fromJson(stored, V1alpha1TYJob.class);
    return JobReader.job(job, LivePods.of(List.of(), List.of()), Instant.now());
  }
}
