import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Turns the CRD files into one OpenAPI 3 document for openapi-generator, so that the Java model is
 * generated from the CRDs themselves. Nested objects become named schemas (TYJob.spec.leader →
 * V1alpha1TYJobSpecLeader, as the Kubernetes client names CRD models); metadata and the nodes
 * listed in java-types.yaml refer to the client's own classes; every kind also gets its List type.
 *
 * <p>Run at build time: {@code java -cp <snakeyaml> CrdToOpenApi.java <crd dir> <java-types.yaml> <out>}.
 */
public final class CrdToOpenApi {

  private static final List<String> CLIENT_SCHEMAS =
      List.of("V1ObjectMeta", "V1ListMeta", "V1Volume", "V1PodTemplateSpec", "Quantity", "IntOrString");

  private final Map<String, Object> schemas = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> javaTypes;

  private CrdToOpenApi(Map<String, Map<String, String>> javaTypes) {
    this.javaTypes = javaTypes;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: CrdToOpenApi <crd dir> <java-types.yaml> <out.yaml>");
    }
    Map<String, Map<String, String>> javaTypes = load(Path.of(args[1]));
    CrdToOpenApi converter = new CrdToOpenApi(javaTypes == null ? Map.of() : javaTypes);
    List<Path> crdFiles;
    try (Stream<Path> files = Files.list(Path.of(args[0]))) {
      crdFiles = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    if (crdFiles.isEmpty()) {
      throw new IllegalArgumentException("no CRD files (*.yaml) in " + args[0]);
    }
    for (Path crd : crdFiles) {
      converter.addCrd(crd);
    }
    converter.write(Path.of(args[2]));
  }

  @SuppressWarnings("unchecked")
  private static <T> T load(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file)) {
      return (T) new Yaml().load(reader);
    }
  }

  @SuppressWarnings("unchecked")
  private void addCrd(Path file) throws IOException {
    Map<String, Object> crd = load(file);
    Map<String, Object> spec = (Map<String, Object>) crd.get("spec");
    String kind = (String) ((Map<String, Object>) spec.get("names")).get("kind");
    Map<String, String> overrides = javaTypes.getOrDefault(kind, Map.of());
    List<String> unused = new ArrayList<>(overrides.keySet());
    for (Map<String, Object> version : (List<Map<String, Object>>) spec.get("versions")) {
      String prefix = capitalize((String) version.get("name"));
      String modelName = prefix + kind;
      Map<String, Object> schema = (Map<String, Object>)
          ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
      Map<String, Object> root = convertObject(schema, modelName, "", overrides, unused);
      ((Map<String, Object>) root.get("properties")).put("metadata", ref("V1ObjectMeta"));
      root.put("x-implements", List.of("io.kubernetes.client.common.KubernetesObject"));

      Map<String, Object> list = new LinkedHashMap<>();
      list.put("type", "object");
      list.put("description", "A list of " + kind + ".");
      list.put("required", List.of("items"));
      Map<String, Object> listProperties = new LinkedHashMap<>();
      listProperties.put("apiVersion", Map.of("type", "string"));
      listProperties.put("kind", Map.of("type", "string"));
      listProperties.put("metadata", ref("V1ListMeta"));
      listProperties.put("items", Map.of("type", "array", "items", ref(modelName)));
      list.put("properties", listProperties);
      list.put("x-implements", List.of("io.kubernetes.client.common.KubernetesListObject"));
      schemas.put(modelName + "List", list);
    }
    if (!unused.isEmpty()) {
      throw new IllegalArgumentException(
          "java-types.yaml names paths that " + file.getFileName() + " does not have: " + unused);
    }
  }

  /** Converts a schema node; objects with properties become named schemas and a $ref is returned. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> convert(Map<String, Object> node, String name, String path,
      Map<String, String> overrides, List<String> unused) {
    String override = overrides.get(path);
    if (override != null) {
      unused.remove(path);
      return ref(override);
    }
    if (Boolean.TRUE.equals(node.get("x-kubernetes-int-or-string"))) {
      return ref("IntOrString");
    }
    Object type = node.get("type");
    if ("array".equals(type)) {
      Map<String, Object> out = copyKeywords(node);
      out.put("items", convert((Map<String, Object>) node.get("items"), name, path + "[]", overrides, unused));
      return out;
    }
    if ("object".equals(type) && node.containsKey("properties")) {
      convertObject(node, name, path, overrides, unused);
      return ref(name);
    }
    if ("object".equals(type)) {
      Map<String, Object> out = copyKeywords(node);
      Object values = node.get("additionalProperties");
      if (values instanceof Map<?, ?> valueSchema) {
        out.put("additionalProperties",
            convert((Map<String, Object>) valueSchema, name + "Value", path + "{}", overrides, unused));
      } else {
        out.put("additionalProperties", true);
      }
      return out;
    }
    return copyKeywords(node);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> convertObject(Map<String, Object> node, String name, String path,
      Map<String, String> overrides, List<String> unused) {
    Map<String, Object> out = copyKeywords(node);
    Map<String, Object> properties = new LinkedHashMap<>();
    ((Map<String, Map<String, Object>>) node.get("properties")).forEach((property, child) -> {
      String childPath = path.isEmpty() ? property : path + "." + property;
      properties.put(property, convert(child, name + capitalize(property), childPath, overrides, unused));
    });
    out.put("properties", properties);
    // A defaulted object is still optional in the Java model: the API server fills it in.
    out.remove("default");
    schemas.put(name, out);
    return out;
  }

  /** Keeps the keywords OpenAPI 3.0 shares with the CRD schema; drops the x-kubernetes ones. */
  private static Map<String, Object> copyKeywords(Map<String, Object> node) {
    Map<String, Object> out = new LinkedHashMap<>();
    node.forEach((key, value) -> {
      if (!key.startsWith("x-kubernetes-") && !key.equals("properties") && !key.equals("items")
          && !key.equals("additionalProperties")) {
        out.put(key, value);
      }
    });
    return out;
  }

  private static Map<String, Object> ref(String schema) {
    return Map.of("$ref", "#/components/schemas/" + schema);
  }

  private static String capitalize(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }

  private void write(Path out) throws IOException {
    Map<String, Object> components = new LinkedHashMap<>();
    for (String clientSchema : CLIENT_SCHEMAS) {
      // Placeholders: schemaMappings replaces them with the client's classes.
      schemas.putIfAbsent(clientSchema, Map.of("type", "object"));
    }
    components.put("schemas", schemas);
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("openapi", "3.0.3");
    document.put("info", Map.of("title", "Arranger custom resources", "version", "v1alpha1"));
    document.put("paths", Map.of());
    document.put("components", components);
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Files.createDirectories(out.getParent());
    try (Writer writer = Files.newBufferedWriter(out)) {
      new Yaml(options).dump(document, writer);
    }
  }
}
