package io.tyrl.arranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Volume;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class TYJobJsonRoundTripTest {

  private final JSON json = new JSON();

  @Test
  void sampleUsesEveryFieldOfTheCrdSchema() {
    List<String> schemaPaths = new ArrayList<>();
    collectSchemaPaths(tyJobSchema(), "", schemaPaths);
    JsonElement sample = sample();

    assertThat(schemaPaths).hasSizeGreaterThan(40);
    List<String> missing = schemaPaths.stream().filter(path -> !has(sample, path)).toList();
    assertThat(missing).as("schema fields missing from the sample").isEmpty();
  }

  @Test
  void fullSampleSurvivesARoundTripThroughTheClientsGson() {
    JsonElement sample = sample();

    V1alpha1TYJob job = json.deserialize(sample.toString(), V1alpha1TYJob.class);
    JsonElement written = JsonParser.parseString(json.serialize(job));

    assertThat((Object) canonical(written)).isEqualTo(canonical(sample));
    V1alpha1TYJob reread = json.deserialize(written.toString(), V1alpha1TYJob.class);
    assertThat(reread).isEqualTo(job);
  }

  @Test
  void clientTypesAreUsedForMetadataTemplatesVolumesAndQuantities() {
    V1alpha1TYJob job = json.deserialize(sample().toString(), V1alpha1TYJob.class);

    assertThat(job.getMetadata().getNamespace()).isEqualTo("rl");
    V1Container learner = job.getSpec().getLeader().getTemplate().getSpec().getContainers().get(0);
    assertThat(learner.getResources().getRequests().get("nvidia.com/gpu").getNumber())
        .isEqualByComparingTo("2");
    assertThat(learner.getResources().getRequests().get("memory").getNumber())
        .isEqualByComparingTo(String.valueOf(32L * 1024 * 1024 * 1024));
    V1Container actor =
        job.getSpec().getWorkerSets().get(0).getTemplate().getSpec().getContainers().get(0);
    assertThat(actor.getResources().getRequests().get("cpu").getNumber())
        .isEqualByComparingTo("0.5");
    assertThat(job.getSpec().getVolumes())
        .extracting(V1Volume::getName)
        .containsExactly("checkpoints", "shm");
    assertThat(job.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
        .isEqualTo("pong-checkpoints");
    assertThat(job.getSpec().getSchedulerPolicy().getBasicPolicy())
        .isEqualTo(V1alpha1TYJobSpecSchedulerPolicy.BasicPolicyEnum.LEADER_FIRST);
    assertThat(job.getSpec().getGang().getMode())
        .isEqualTo(V1alpha1TYJobSpecGang.ModeEnum.NON_STRICT);
    assertThat(job.getStatus().getScheduling().getLastCycleTime())
        .isEqualTo(OffsetDateTime.parse("2026-11-22T10:15:30Z"));
    assertThat(job.getStatus().getObservedGeneration()).isEqualTo(3L);
  }

  @Test
  void queueWithCapabilitySurvivesARoundTrip() {
    String queue =
        """
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "Queue", "metadata": {"name": "games"},
         "spec": {"weight": 4, "capability": {"cpu": "96", "memory": "512Gi", "nvidia.com/gpu": "16"},
                  "reclaimable": false, "jobQueuePolicy": "DRF",
                  "priority": 2, "state": "Closed"},
         "status": {"deserved": {"cpu": "48"}, "allocated": {"cpu": "40500m"}, "pending": 3, "running": 5}}""";

    V1alpha1Queue parsed = json.deserialize(queue, V1alpha1Queue.class);

    assertThat(parsed.getSpec().getCapability().get("nvidia.com/gpu").getNumber())
        .isEqualByComparingTo("16");
    assertThat(parsed.getStatus().getAllocated().get("cpu").getNumber())
        .isEqualByComparingTo("40.5");
    assertThat((Object) canonical(JsonParser.parseString(json.serialize(parsed))))
        .isEqualTo(canonical(JsonParser.parseString(queue)));
  }

  @Test
  void queueInATreeWithItsStatusSurvivesARoundTrip() {
    String queue =
        """
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "Queue", "metadata": {"name": "atari"},
         "spec": {"weight": 1, "reclaimable": true, "priority": 0, "state": "Open",
                  "parent": "games", "guarantee": {"cpu": "32", "nvidia.com/gpu": "4"},
                  "preemptMinRuntime": "10m", "reclaimMinRuntime": "1h30m"},
         "status": {"parent": "games", "guarantee": {"cpu": "32", "nvidia.com/gpu": "4"},
                    "allocated": {"cpu": "40"}, "overQuota": {"cpu": "8"},
                    "conditions": [{"type": "TreeValid", "status": "False", "reason": "InvalidQueueTree",
                                    "message": "parent games does not exist",
                                    "lastTransitionTime": "2026-11-27T10:00:00Z"}]}}""";

    V1alpha1Queue parsed = json.deserialize(queue, V1alpha1Queue.class);

    assertThat(parsed.getSpec().getParent()).isEqualTo("games");
    assertThat(parsed.getSpec().getGuarantee().get("nvidia.com/gpu").getNumber())
        .isEqualByComparingTo("4");
    assertThat(parsed.getSpec().getReclaimMinRuntime()).isEqualTo("1h30m");
    assertThat(parsed.getStatus().getOverQuota().get("cpu").getNumber()).isEqualByComparingTo("8");
    assertThat(parsed.getStatus().getConditions().get(0).getMessage())
        .isEqualTo("parent games does not exist");
    assertThat((Object) canonical(JsonParser.parseString(json.serialize(parsed))))
        .isEqualTo(canonical(JsonParser.parseString(queue)));
  }

  /**
   * What the API server would see: client-java 24's own models (ObjectMeta, PodSpec...) start their
   * lists and maps empty and write them out as {@code []} and {@code {}}, which Kubernetes reads as
   * absent (Arranger's generated models leave them null), and the client writes timestamps with
   * microseconds. Empties are pruned and timestamps compared as instants.
   */
  private static JsonElement canonical(JsonElement element) {
    if (element.isJsonObject()) {
      JsonObject pruned = new JsonObject();
      element
          .getAsJsonObject()
          .entrySet()
          .forEach(
              entry -> {
                JsonElement value = canonical(entry.getValue());
                boolean empty =
                    (value.isJsonObject() && value.getAsJsonObject().isEmpty())
                        || (value.isJsonArray() && value.getAsJsonArray().isEmpty());
                if (!empty) {
                  pruned.add(entry.getKey(), value);
                }
              });
      return pruned;
    }
    if (element.isJsonArray()) {
      JsonArray pruned = new JsonArray();
      element.getAsJsonArray().forEach(item -> pruned.add(canonical(item)));
      return pruned;
    }
    if (element.isJsonPrimitive() && element.getAsJsonPrimitive().isString()) {
      try {
        return new JsonPrimitive(
            OffsetDateTime.parse(element.getAsString()).toInstant().toString());
      } catch (DateTimeParseException notATimestamp) {
        return element;
      }
    }
    return element;
  }

  private static JsonElement sample() {
    return new Gson().toJsonTree(loadYaml("samples/tyjob-full.yaml"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tyJobSchema() {
    Map<String, Object> crd = loadYaml("crds/tyjobs.arranger.tyrl.io.yaml");
    Map<String, Object> version =
        ((List<Map<String, Object>>) ((Map<String, Object>) crd.get("spec")).get("versions"))
            .get(0);
    return (Map<String, Object>)
        ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
  }

  /** Paths of every property the schema declares, with "[]" for array items. */
  @SuppressWarnings("unchecked")
  private static void collectSchemaPaths(
      Map<String, Object> schema, String prefix, List<String> paths) {
    Map<String, Map<String, Object>> properties =
        (Map<String, Map<String, Object>>) schema.get("properties");
    if (properties != null) {
      properties.forEach(
          (name, child) -> {
            String path = prefix.isEmpty() ? name : prefix + "." + name;
            paths.add(path);
            collectSchemaPaths(child, path, paths);
          });
    }
    Map<String, Object> items = (Map<String, Object>) schema.get("items");
    if (items != null) {
      collectSchemaPaths(items, prefix + "[]", paths);
    }
  }

  private static boolean has(JsonElement root, String path) {
    List<JsonElement> current = List.of(root);
    for (String segment : path.split("\\.")) {
      boolean array = segment.endsWith("[]");
      String name = array ? segment.substring(0, segment.length() - 2) : segment;
      List<JsonElement> next = new ArrayList<>();
      for (JsonElement element : current) {
        JsonElement child = element.isJsonObject() ? ((JsonObject) element).get(name) : null;
        if (child != null && array && child.isJsonArray()) {
          child.getAsJsonArray().forEach(next::add);
        } else if (child != null && !array) {
          next.add(child);
        }
      }
      if (next.isEmpty()) {
        return false;
      }
      current = next;
    }
    return true;
  }

  private static <T> T loadYaml(String resource) {
    try (InputStream in =
        TYJobJsonRoundTripTest.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + resource);
      }
      return new Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }
}
