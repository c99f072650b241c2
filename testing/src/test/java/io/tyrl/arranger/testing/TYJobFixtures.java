package io.tyrl.arranger.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Raw TYJob bodies, so that what the API server fills in is not already set by the Java model's
 * defaults.
 */
final class TYJobFixtures {

  private TYJobFixtures() {}

  static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A TYJob with only a leader and one WorkerSet whose counts is left out. */
  static Map<String, Object> minimalTyJob(String name) {
    Map<String, Object> worker = new LinkedHashMap<>();
    worker.put("name", "actor");
    worker.put("template", podTemplate("actor"));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put(
        "leader",
        new LinkedHashMap<>(Map.of("name", "learner", "template", podTemplate("learner"))));
    spec.put("workerSets", new ArrayList<>(List.of(worker)));
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("apiVersion", "arranger.tyrl.io/v1alpha1");
    job.put("kind", "TYJob");
    job.put("metadata", new LinkedHashMap<>(Map.of("name", name)));
    job.put("spec", spec);
    return job;
  }

  private static Map<String, Object> podTemplate(String container) {
    Map<String, Object> resources = Map.of("requests", Map.of("cpu", "1", "memory", "1Gi"));
    return Map.of(
        "spec",
        Map.of(
            "containers",
            List.of(
                Map.of(
                    "name",
                    container,
                    "image",
                    "registry.local/rl/" + container + ":1",
                    "resources",
                    resources))));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(Map<String, Object> job) {
    return (Map<String, Object>) job.get("spec");
  }
}
