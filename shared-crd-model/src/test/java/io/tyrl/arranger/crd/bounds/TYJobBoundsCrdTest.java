package io.tyrl.arranger.crd.bounds;

import static io.tyrl.arranger.crd.bounds.TYJobBounds.DNS_LABEL_PATTERN;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.DNS_SUBDOMAIN_PATTERN;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_COUNTS;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_GANG_GROUP_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_LEADER_NAME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_MIN_WORKERS_NUM;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_POD_NAME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_PRIORITY;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_QUEUE_NAME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_RESTART_LIMIT;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_VOLUME_NAME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_WAIT_TIME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_WORKER_SETS;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MAX_WORKER_SET_NAME_LENGTH;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MIN_COUNTS;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MIN_MIN_WORKERS_NUM;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MIN_PRIORITY;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MIN_RESTART_LIMIT;
import static io.tyrl.arranger.crd.bounds.TYJobBounds.MIN_WORKER_SETS;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.GoDurations;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The CRD's schema and {@link TYJobBounds} state the same bounds: every bound keyword under {@code
 * spec} in the CRD has its constant here, with the same value, and no constant lacks its keyword. A
 * bound changed on one side only fails this test.
 */
class TYJobBoundsCrdTest {

  private static final Set<String> BOUND_KEYWORDS =
      Set.of("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern");

  /**
   * {@code path keyword} → value, for every bound the Java side enforces and the schema can state.
   */
  private static final Map<String, Object> JAVA_BOUNDS =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry("spec.restartLimit minimum", MIN_RESTART_LIMIT),
              Map.entry("spec.restartLimit maximum", MAX_RESTART_LIMIT),
              Map.entry("spec.volumes[].name minLength", 1),
              Map.entry("spec.volumes[].name maxLength", MAX_VOLUME_NAME_LENGTH),
              Map.entry("spec.volumes[].name pattern", DNS_LABEL_PATTERN),
              Map.entry("spec.leader.name minLength", 1),
              Map.entry("spec.leader.name maxLength", MAX_LEADER_NAME_LENGTH),
              Map.entry("spec.leader.name pattern", DNS_LABEL_PATTERN),
              Map.entry("spec.workerSets minItems", MIN_WORKER_SETS),
              Map.entry("spec.workerSets maxItems", MAX_WORKER_SETS),
              Map.entry("spec.workerSets[].name minLength", 1),
              Map.entry("spec.workerSets[].name maxLength", MAX_WORKER_SET_NAME_LENGTH),
              Map.entry("spec.workerSets[].name pattern", DNS_LABEL_PATTERN),
              Map.entry("spec.workerSets[].counts minimum", MIN_COUNTS),
              Map.entry("spec.workerSets[].counts maximum", MAX_COUNTS),
              Map.entry("spec.minWorkersNum minimum", MIN_MIN_WORKERS_NUM),
              Map.entry("spec.minWorkersNum maximum", MAX_MIN_WORKERS_NUM),
              Map.entry("spec.priority minimum", MIN_PRIORITY),
              Map.entry("spec.priority maximum", MAX_PRIORITY),
              Map.entry("spec.queue minLength", 1),
              Map.entry("spec.queue maxLength", MAX_QUEUE_NAME_LENGTH),
              Map.entry("spec.queue pattern", DNS_SUBDOMAIN_PATTERN),
              Map.entry("spec.gang.waitTime maxLength", MAX_WAIT_TIME_LENGTH),
              Map.entry("spec.gang.waitTime pattern", GoDurations.PATTERN),
              Map.entry("spec.gang.group maxLength", MAX_GANG_GROUP_LENGTH)));

  @Test
  void theCrdStatesExactlyTheBoundsOfTYJobBounds() {
    Map<String, Object> crdBounds = new TreeMap<>();
    collectBounds(property(tyJobSchema(), "spec"), "spec", crdBounds);

    assertThat(crdBounds).isEqualTo(JAVA_BOUNDS);
  }

  /** {@code path} → value, for every default the CRD declares. */
  private static final Map<String, Object> JAVA_DEFAULTS =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry("spec.restartLimit", TYJobDefaults.RESTART_LIMIT),
              Map.entry("spec.workerSets[].counts", TYJobDefaults.WORKER_SET_COUNTS),
              Map.entry("spec.cleanPodPolicy", TYJobDefaults.CLEAN_POD_POLICY),
              Map.entry("spec.terminating", TYJobDefaults.TERMINATING),
              Map.entry("spec.minWorkersNum", TYJobDefaults.MIN_WORKERS_NUM),
              Map.entry("spec.priority", TYJobDefaults.PRIORITY),
              Map.entry("spec.preemptionPolicy", TYJobDefaults.PREEMPTION_POLICY),
              Map.entry("spec.queue", TYJobDefaults.QUEUE),
              Map.entry("spec.gang", Map.of()),
              Map.entry("spec.gang.mode", TYJobDefaults.GANG_MODE)));

  @Test
  void theCrdDeclaresExactlyTheDefaultsOfTYJobDefaults() {
    Map<String, Object> crdDefaults = new TreeMap<>();
    collectDefaults(property(tyJobSchema(), "spec"), "spec", crdDefaults);

    assertThat(crdDefaults).isEqualTo(JAVA_DEFAULTS);
  }

  @Test
  void everyBoundedIntegerStaysInsideInt32WhichTheApiServerDoesNotEnforce() {
    Map<String, Object> crdBounds = new TreeMap<>();
    collectBounds(property(tyJobSchema(), "spec"), "spec", crdBounds);
    List<String> integerFields = integerFieldsUnder(property(tyJobSchema(), "spec"), "spec");

    assertThat(integerFields).isNotEmpty();
    for (String field : integerFields) {
      assertThat(crdBounds).as(field + " needs a maximum").containsKey(field + " maximum");
      assertThat(((Number) crdBounds.get(field + " maximum")).longValue())
          .isLessThanOrEqualTo(Integer.MAX_VALUE);
    }
  }

  @Test
  void theNameBoundsLeaveRoomForAOneLetterJobAndTheHighestIndex() {
    String longestWorkerPod =
        "j-" + "w".repeat(MAX_WORKER_SET_NAME_LENGTH) + "-" + (MAX_COUNTS - 1);
    String longestLeaderPod = "j-" + "l".repeat(MAX_LEADER_NAME_LENGTH);

    assertThat(longestWorkerPod).hasSize(MAX_POD_NAME_LENGTH);
    assertThat(longestLeaderPod).hasSize(MAX_POD_NAME_LENGTH);
  }

  private static void collectBounds(
      Map<String, Object> schema, String path, Map<String, Object> bounds) {
    eachNode(
        schema,
        path,
        (nodePath, node) ->
            node.forEach(
                (keyword, value) -> {
                  if (BOUND_KEYWORDS.contains(keyword)) {
                    bounds.put(nodePath + " " + keyword, value);
                  }
                }));
  }

  private static void collectDefaults(
      Map<String, Object> schema, String path, Map<String, Object> defaults) {
    eachNode(
        schema,
        path,
        (nodePath, node) -> {
          if (node.containsKey("default")) {
            defaults.put(nodePath, node.get("default"));
          }
        });
  }

  /**
   * Visits a schema node and every node below it (properties and array items), each with its path.
   */
  @SuppressWarnings("unchecked")
  private static void eachNode(
      Map<String, Object> schema, String path, BiConsumer<String, Map<String, Object>> visit) {
    visit.accept(path, schema);
    Map<String, Map<String, Object>> properties =
        (Map<String, Map<String, Object>>) schema.get("properties");
    if (properties != null) {
      properties.forEach((name, child) -> eachNode(child, path + "." + name, visit));
    }
    Map<String, Object> items = (Map<String, Object>) schema.get("items");
    if (items != null) {
      eachNode(items, path + "[]", visit);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> integerFieldsUnder(Map<String, Object> schema, String path) {
    List<String> fields = new ArrayList<>();
    if ("integer".equals(schema.get("type"))) {
      fields.add(path);
    }
    Map<String, Map<String, Object>> properties =
        (Map<String, Map<String, Object>>) schema.get("properties");
    if (properties != null) {
      properties.forEach(
          (name, child) -> fields.addAll(integerFieldsUnder(child, path + "." + name)));
    }
    Map<String, Object> items = (Map<String, Object>) schema.get("items");
    if (items != null) {
      fields.addAll(integerFieldsUnder(items, path + "[]"));
    }
    return fields;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> property(Map<String, Object> schema, String name) {
    return ((Map<String, Map<String, Object>>) schema.get("properties")).get(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tyJobSchema() {
    try (InputStream in =
        TYJobBoundsCrdTest.class
            .getClassLoader()
            .getResourceAsStream("crds/tyjobs.arranger.tyrl.io.yaml")) {
      assertThat(in).as("the CRD on the classpath").isNotNull();
      Map<String, Object> crd = new Yaml().load(new InputStreamReader(in, StandardCharsets.UTF_8));
      Map<String, Object> version =
          ((List<Map<String, Object>>) ((Map<String, Object>) crd.get("spec")).get("versions"))
              .get(0);
      return (Map<String, Object>)
          ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the TYJob CRD", e);
    }
  }
}
