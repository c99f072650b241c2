package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds TYJobs as raw objects, the way a user's YAML reaches the API server: fields left unset
 * stay absent, so the API server's defaults apply rather than the Java model's.
 */
public final class TYJobBuilder {

  private final String name;
  private String namespace = "default";
  private Map<String, Object> leader;
  private final List<Map<String, Object>> workerSets = new ArrayList<>();
  private final Map<String, Object> spec = new LinkedHashMap<>();
  private final Map<String, String> nodeSelector = new LinkedHashMap<>();
  private Long nodeLossToleration;
  private final Map<String, String> everyContainer = new LinkedHashMap<>();
  private final Map<String, String> gpuFractions = new LinkedHashMap<>();

  private TYJobBuilder(String name) {
    this.name = name;
  }

  public static TYJobBuilder named(String name) {
    return new TYJobBuilder(name);
  }

  public TYJobBuilder namespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  public TYJobBuilder leader(String leaderName, String cpu, String memory) {
    leader = new LinkedHashMap<>(Map.of("name", leaderName, "template", Map.of()));
    leader.put("resources", requests(cpu, memory));
    return this;
  }

  /**
   * One more request of the leader's container, e.g. {@code leaderRequest("nvidia.com/gpu", "1")}.
   */
  @SuppressWarnings("unchecked")
  public TYJobBuilder leaderRequest(String resource, String quantity) {
    if (leader == null) {
      throw new IllegalStateException("TYJob " + name + " needs a leader first");
    }
    Map<String, Object> resources =
        new LinkedHashMap<>((Map<String, Object>) leader.get("resources"));
    Map<String, Object> requests =
        new LinkedHashMap<>((Map<String, Object>) resources.getOrDefault("requests", Map.of()));
    requests.put(resource, quantity);
    resources.put("requests", requests);
    leader.put("resources", resources);
    return this;
  }

  /** The leader's container asks whole GPUs, as request and limit (the API server wants both). */
  @SuppressWarnings("unchecked")
  public TYJobBuilder leaderGpus(String quantity) {
    leaderRequest(GpuFraction.GPU_RESOURCE, quantity);
    Map<String, Object> resources =
        new LinkedHashMap<>((Map<String, Object>) leader.get("resources"));
    resources.put("limits", Map.of(GpuFraction.GPU_RESOURCE, quantity));
    leader.put("resources", resources);
    return this;
  }

  /** Each pod of the worker set asks {@code fraction} of one GPU ({@link GpuFraction}). */
  public TYJobBuilder workerGpuFraction(String setName, String fraction) {
    gpuFractions.put(setName, fraction);
    return this;
  }

  public TYJobBuilder workers(String setName, int counts, String cpu, String memory) {
    Map<String, Object> set = new LinkedHashMap<>();
    set.put("name", setName);
    set.put("counts", counts);
    set.put("resources", requests(cpu, memory));
    workerSets.add(set);
    return this;
  }

  /**
   * Every container of the job, the leader's and every worker set's, requests {@code quantity} of
   * an extended resource such as {@code nvidia.com/gpu}, with a limit equal to it: the API server
   * refuses a pod that requests an extended resource without that limit.
   */
  public TYJobBuilder everyContainerRequests(String resource, String quantity) {
    everyContainer.put(resource, quantity);
    return this;
  }

  /** Every pod of the job gets this nodeSelector entry (keeps a test's jobs on its own nodes). */
  public TYJobBuilder nodeSelector(String key, String value) {
    nodeSelector.put(key, value);
    return this;
  }

  /**
   * Every pod of the job tolerates a node that is not Ready or unreachable (NoExecute) for that
   * long, instead of the 300 s the API server's admission gives a pod without such tolerations.
   */
  public TYJobBuilder tolerateNodeLossFor(long seconds) {
    this.nodeLossToleration = seconds;
    return this;
  }

  /** Any spec field, by its JSON name, e.g. {@code set("priority", 7)}. */
  public TYJobBuilder set(String field, Object value) {
    spec.put(field, value);
    return this;
  }

  public Map<String, Object> build() {
    if (leader == null) {
      throw new IllegalStateException("TYJob " + name + " needs a leader");
    }
    Map<String, Object> body = new LinkedHashMap<>(spec);
    body.put(
        "leader",
        Map.of(
            "name",
            leader.get("name"),
            "template",
            template((String) leader.get("name"), leader.get("resources"), null)));
    List<Map<String, Object>> sets = new ArrayList<>();
    for (Map<String, Object> set : workerSets) {
      sets.add(
          Map.of(
              "name",
              set.get("name"),
              "counts",
              set.get("counts"),
              "template",
              template(
                  (String) set.get("name"),
                  set.get("resources"),
                  gpuFractions.get((String) set.get("name")))));
    }
    body.put("workerSets", sets);
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("apiVersion", ArrangerResources.API_VERSION);
    job.put("kind", ArrangerResources.TYJOB_KIND);
    job.put("metadata", Map.of("name", name, "namespace", namespace));
    job.put("spec", body);
    return job;
  }

  public void create(ApiClient client) {
    try {
      new CustomObjectsApi(client)
          .createNamespacedCustomObject(
              ArrangerResources.GROUP,
              ArrangerResources.VERSION,
              namespace,
              ArrangerResources.TYJOBS,
              build())
          .execute();
    } catch (ApiException e) {
      throw new IllegalStateException(
          "cannot create TYJob "
              + namespace
              + "/"
              + name
              + " (HTTP "
              + e.getCode()
              + "): "
              + e.getResponseBody(),
          e);
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> template(String container, Object resources, String gpuFraction) {
    if (!everyContainer.isEmpty()) {
      Map<String, Object> withExtended = new LinkedHashMap<>((Map<String, Object>) resources);
      Map<String, Object> requests =
          new LinkedHashMap<>(
              (Map<String, Object>) withExtended.getOrDefault("requests", Map.of()));
      Map<String, Object> limits =
          new LinkedHashMap<>((Map<String, Object>) withExtended.getOrDefault("limits", Map.of()));
      requests.putAll(everyContainer);
      limits.putAll(everyContainer);
      withExtended.put("requests", requests);
      withExtended.put("limits", limits);
      resources = withExtended;
    }
    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put(
        "containers",
        List.of(
            Map.of(
                "name",
                container,
                "image",
                "registry.local/rl/" + container + ":1",
                "resources",
                resources)));
    if (!nodeSelector.isEmpty()) {
      podSpec.put("nodeSelector", nodeSelector);
    }
    if (nodeLossToleration != null) {
      podSpec.put(
          "tolerations",
          List.of(
              Map.of(
                  "key",
                  "node.kubernetes.io/not-ready",
                  "operator",
                  "Exists",
                  "effect",
                  "NoExecute",
                  "tolerationSeconds",
                  nodeLossToleration),
              Map.of(
                  "key",
                  "node.kubernetes.io/unreachable",
                  "operator",
                  "Exists",
                  "effect",
                  "NoExecute",
                  "tolerationSeconds",
                  nodeLossToleration)));
    }
    return gpuFraction == null
        ? Map.of("spec", podSpec)
        : Map.of(
            "metadata",
            Map.of("annotations", Map.of(GpuFraction.ANNOTATION, gpuFraction)),
            "spec",
            podSpec);
  }

  private static Map<String, Object> requests(String cpu, String memory) {
    Map<String, Object> requests = new LinkedHashMap<>();
    if (cpu != null) {
      requests.put("cpu", cpu);
    }
    if (memory != null) {
      requests.put("memory", memory);
    }
    return requests.isEmpty() ? Map.of() : Map.of("requests", requests);
  }
}
