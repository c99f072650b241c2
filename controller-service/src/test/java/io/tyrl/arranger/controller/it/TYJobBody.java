package io.tyrl.arranger.controller.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Raw TYJob bodies for the ITs, built as the user would write them (no Java-model defaults). */
final class TYJobBody {

  private final String name;
  private String leaderName = "learner";
  private Map<String, Object> leaderTemplate = template("learner", "100m");
  private final List<Map<String, Object>> workerSets = new ArrayList<>();
  private final Map<String, Object> extraSpec = new LinkedHashMap<>();

  private TYJobBody(String name) {
    this.name = name;
  }

  static TYJobBody named(String name) {
    return new TYJobBody(name);
  }

  TYJobBody leaderRequestingCpu(String cpu) {
    leaderTemplate = template("learner", cpu);
    return this;
  }

  /**
   * The leader tolerates a node that is not Ready or unreachable for that long (NoExecute), as a
   * user may set.
   */
  TYJobBody leaderToleratingNodeLossFor(long seconds) {
    Map<String, Object> spec = new LinkedHashMap<>(castMap(leaderTemplate.get("spec")));
    spec.put(
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
                seconds),
            Map.of(
                "key",
                "node.kubernetes.io/unreachable",
                "operator",
                "Exists",
                "effect",
                "NoExecute",
                "tolerationSeconds",
                seconds)));
    Map<String, Object> template = new LinkedHashMap<>(leaderTemplate);
    template.put("spec", spec);
    leaderTemplate = template;
    return this;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object value) {
    return (Map<String, Object>) value;
  }

  TYJobBody workerSet(String setName, int counts) {
    Map<String, Object> workerSet = new LinkedHashMap<>();
    workerSet.put("name", setName);
    workerSet.put("counts", counts);
    workerSet.put("template", template("actor", "100m"));
    workerSets.add(workerSet);
    return this;
  }

  TYJobBody spec(String field, Object value) {
    extraSpec.put(field, value);
    return this;
  }

  /** A volume every pod of the job gets, as {@code spec.volumes}. */
  TYJobBody sharedVolume(String volumeName) {
    return spec("volumes", List.of(Map.of("name", volumeName, "emptyDir", Map.of())));
  }

  Map<String, Object> build() {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("leader", Map.of("name", leaderName, "template", leaderTemplate));
    spec.put("workerSets", workerSets);
    spec.putAll(extraSpec);
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("apiVersion", "arranger.tyrl.io/v1alpha1");
    job.put("kind", "TYJob");
    job.put("metadata", Map.of("name", name));
    job.put("spec", spec);
    return job;
  }

  private static Map<String, Object> template(String container, String cpu) {
    Map<String, Object> containerSpec = new LinkedHashMap<>();
    containerSpec.put("name", container);
    containerSpec.put("image", "registry.local/rl/" + container + ":1");
    containerSpec.put("env", List.of(Map.of("name", "FROM_TEMPLATE", "value", "kept")));
    containerSpec.put("resources", Map.of("requests", Map.of("cpu", cpu, "memory", "64Mi")));
    return Map.of(
        "metadata", Map.of("labels", Map.of("team", "rl")),
        "spec", Map.of("containers", List.of(containerSpec)));
  }
}
