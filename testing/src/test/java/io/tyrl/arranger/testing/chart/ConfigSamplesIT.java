package io.tyrl.arranger.testing.chart;

import static io.tyrl.arranger.testing.chart.Manifests.kind;
import static io.tyrl.arranger.testing.chart.Manifests.name;
import static io.tyrl.arranger.testing.chart.Manifests.string;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keeps config/samples/ valid: every Queue and TYJob there is created on the real API server (CRD
 * schema, defaults and bounds apply) and read back with every field it was given, so that a field
 * the structural schema would silently prune also fails. Queues are cluster-scoped and other tests
 * share the API server: they are created under unique names (the jobs' spec.queue follows) and
 * deleted afterwards. Also checks that the samples still cover what config/samples/README.md
 * promises.
 */
@ExtendWith(KubeApiServerExtension.class)
class ConfigSamplesIT {

  private static final Path SAMPLES = HelmCli.findProjectRoot().resolve("config/samples");

  /** Every object in config/samples/*.yaml, by file, in file order. */
  private static Map<Path, List<JsonObject>> samples;

  @BeforeAll
  static void loadSamples() throws IOException {
    samples = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(SAMPLES)) {
      for (Path file : files.filter(path -> path.toString().endsWith(".yaml")).sorted().toList()) {
        samples.put(file, Manifests.parse(Files.readString(file)));
      }
    }
  }

  @Test
  void samplesCoverEveryBasicPolicyGangGroupsNonStrictGangsAndQueueSettings() {
    List<JsonObject> jobs = all("TYJob");
    List<JsonObject> queues = all("Queue");

    assertThat(jobs)
        .extracting(job -> string(job, "spec", "schedulerPolicy", "basicPolicy"))
        .contains(
            "Gang", "BinPack", "LeaderFirst", "MinFragment", "JobAffinity", "JobAntiAffinity");
    Map<String, Long> groupSizes =
        jobs.stream()
            .filter(job -> string(job, "spec", "gang", "group") != null)
            .collect(
                Collectors.groupingBy(
                    job -> string(job, "spec", "gang", "group"), Collectors.counting()));
    assertThat(groupSizes).as("a gang group of at least two jobs").containsValue(2L);
    assertThat(jobs)
        .anySatisfy(
            job -> {
              assertThat(string(job, "spec", "gang", "mode")).isEqualTo("NonStrict");
              assertThat(string(job, "spec", "gang", "waitTime")).isNotBlank();
            });
    assertThat(queues)
        .hasSizeGreaterThanOrEqualTo(2)
        .anySatisfy(queue -> assertThat(string(queue, "spec", "reclaimable")).isEqualTo("false"))
        .anySatisfy(queue -> assertThat(Manifests.at(queue, "spec", "capability")).isNotNull())
        .allSatisfy(queue -> assertThat(string(queue, "spec", "weight")).isNotNull());
    assertThat(queues)
        .extracting(Manifests::name)
        .as("the default Queue belongs to the scheduler")
        .doesNotContain("default");
    assertThat(jobs)
        .allSatisfy(
            job ->
                assertThat(queues)
                    .extracting(Manifests::name)
                    .as("%s's queue is one of the samples", name(job))
                    .contains(string(job, "spec", "queue")));
  }

  @Test
  void everySampleIsCreatedOnTheApiServerWithEveryFieldKept(ApiClient client) throws Exception {
    String namespace = Manifests.createNamespace(client, "samples");
    String suffix = "-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> queueNames = new HashMap<>();
    all("Queue").forEach(queue -> queueNames.put(name(queue), name(queue) + suffix));
    Manifests.Resources resources = new Manifests.Resources(client);

    List<JsonObject> created = new ArrayList<>();
    try {
      // Queues first: the jobs name them.
      for (String kind : List.of("Queue", "TYJob")) {
        for (Map.Entry<Path, List<JsonObject>> file : samples.entrySet()) {
          for (JsonObject sample : file.getValue()) {
            if (!kind(sample).equals(kind)) {
              continue;
            }
            JsonObject object = sample.deepCopy();
            if (kind.equals("Queue")) {
              object.getAsJsonObject("metadata").addProperty("name", queueNames.get(name(sample)));
            } else {
              object.getAsJsonObject("metadata").addProperty("namespace", namespace);
              object
                  .getAsJsonObject("spec")
                  .addProperty("queue", queueNames.get(string(sample, "spec", "queue")));
            }
            String what = Manifests.describe(sample) + " of " + SAMPLES.relativize(file.getKey());
            DynamicKubernetesObject stored =
                Manifests.requireSuccess(
                    resources.api(object).create(new DynamicKubernetesObject(object)),
                    "creating " + what);
            created.add(object);
            Optional<String> pruned =
                Manifests.firstDifference(object.get("spec"), stored.getRaw().get("spec"), "spec");
            assertThat(pruned).as("%s as the API server stored it", what).isEmpty();
          }
        }
      }
      assertThat(created).hasSize(all("Queue").size() + all("TYJob").size());
    } finally {
      for (JsonObject object : created) {
        DynamicKubernetesApi api = resources.api(object);
        KubernetesApiResponse<DynamicKubernetesObject> deleted =
            kind(object).equals("Queue")
                ? api.delete(name(object))
                : api.delete(namespace, name(object));
        assertThat(deleted.isSuccess()).as("deleting %s", Manifests.describe(object)).isTrue();
      }
    }
  }

  private static List<JsonObject> all(String kind) {
    return samples.values().stream()
        .flatMap(Collection::stream)
        .filter(object -> kind(object).equals(kind))
        .toList();
  }
}
