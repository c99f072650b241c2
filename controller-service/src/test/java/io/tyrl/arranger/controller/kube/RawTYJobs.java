package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** TYJobs as the API server stores them, as raw JSON, for the adapter's unit tests. */
final class RawTYJobs {

  private RawTYJobs() {}

  static JsonObject job(String spec, String status) {
    return JsonParser.parseString(
            """
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "TYJob",
         "metadata": {"name": "train", "namespace": "rl", "uid": "uid-1", "resourceVersion": "42", "generation": 3,
                      "creationTimestamp": "2026-11-22T10:00:00Z"},
         "spec": %s, "status": %s}"""
                .formatted(spec, status))
        .getAsJsonObject();
  }

  static JsonObject job(String spec) {
    return job(spec, "{}");
  }

  static String spec(String leaderTemplate, String actorTemplate) {
    return """
        {"restartLimit": 2, "minWorkersNum": 2, "cleanPodPolicy": "Running", "terminating": false,
         "volumes": [{"name": "shared", "emptyDir": {}}],
         "leader": {"name": "learner", "template": %s},
         "workerSets": [{"name": "actor", "counts": 2, "template": %s}]}"""
        .formatted(leaderTemplate, actorTemplate);
  }

  static String template(String container) {
    return """
        {"metadata": {"labels": {"team": "rl"}},
         "spec": {"volumes": [{"name": "scratch", "emptyDir": {}}],
                  "containers": [{"name": "%s", "image": "registry.local/rl/%s:1",
                                  "env": [{"name": "TYJOB_ROLE", "value": "spoofed"}, {"name": "KEEP", "value": "1"}],
                                  "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"memory": 2147483648}}}]}}"""
        .formatted(container, container);
  }

  static String validSpec() {
    return spec(template("learner"), template("actor"));
  }
}
