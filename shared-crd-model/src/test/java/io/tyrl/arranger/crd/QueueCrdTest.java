package io.tyrl.arranger.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.contract.GoDurations;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Queue CRD's tree fields: what the API server accepts is what the scheduler reads, and a Queue
 * stored before them keeps its meaning (no new default).
 */
class QueueCrdTest {

  @Test
  void minimumRuntimesTakeTheDurationsTheContractParses() {
    Map<String, Object> spec = properties(queueSchema(), "spec");

    assertThat(property(spec, "preemptMinRuntime").get("pattern")).isEqualTo(GoDurations.PATTERN);
    assertThat(property(spec, "reclaimMinRuntime").get("pattern")).isEqualTo(GoDurations.PATTERN);
  }

  @Test
  void aParentIsNamedAsAQueueIsAndAsAJobNamesItsQueue() {
    Map<String, Object> parent = property(properties(queueSchema(), "spec"), "parent");

    assertThat(parent.get("pattern")).isEqualTo(TYJobBounds.DNS_SUBDOMAIN_PATTERN);
    assertThat(parent.get("maxLength")).isEqualTo(TYJobBounds.MAX_QUEUE_NAME_LENGTH);
  }

  @Test
  void onlyTheFieldsThatExistedBeforeTheTreeHaveDefaults() {
    Map<String, Object> defaults = new TreeMap<>();
    properties(queueSchema(), "spec")
        .forEach(
            (name, schema) -> {
              @SuppressWarnings("unchecked")
              Object value = ((Map<String, Object>) schema).get("default");
              if (value != null) {
                defaults.put(name, value);
              }
            });

    assertThat(defaults)
        .isEqualTo(Map.of("weight", 1, "reclaimable", true, "priority", 0, "state", "Open"));
  }

  @Test
  void theGuaranteeTakesQuantitiesAsTheCapabilityDoes() {
    Map<String, Object> spec = properties(queueSchema(), "spec");

    assertThat(property(spec, "guarantee").get("additionalProperties"))
        .isEqualTo(property(spec, "capability").get("additionalProperties"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Map<String, Object> schema, String name) {
    Map<String, Object> node =
        (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get(name);
    return (Map<String, Object>) node.get("properties");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> property(Map<String, Object> properties, String name) {
    assertThat(properties).as("the schema declares %s", name).containsKey(name);
    return (Map<String, Object>) properties.get(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> queueSchema() {
    try (InputStream in =
        QueueCrdTest.class
            .getClassLoader()
            .getResourceAsStream("crds/queues.arranger.tyrl.io.yaml")) {
      Map<String, Object> crd = new Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
      Map<String, Object> version =
          ((List<Map<String, Object>>) ((Map<String, Object>) crd.get("spec")).get("versions"))
              .get(0);
      return (Map<String, Object>)
          ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the Queue CRD", e);
    }
  }
}
