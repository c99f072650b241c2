package io.tyrl.arranger.scheduler.conf;

import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a scheduler configuration from YAML, in kube-batch's shape:
 *
 * <pre>
 * actions: "enqueue, allocate, backfill"      # or a YAML list
 * tiers:
 *   - plugins:
 *       - name: priority
 *       - name: nodeorder
 *         arguments:
 *           binpack.weight: 2                 # or nested: binpack: {weight: 2}
 * configurations:                             # optional action arguments
 *   - name: allocate
 *     arguments: {percentageOfNodesToScore: 100}
 * defaultJobQueuePolicy: DRF                  # optional: job order of queues that set none (Priority)
 * topology:                                   # optional: node-label keys, widest level first
 *   levels: [topology.kubernetes.io/zone, example.com/rack, kubernetes.io/hostname]
 * fairness:                                   # optional: fairness over time (FairnessConfiguration)
 *   halfLife: 24h                             # past usage counts half after this
 *   window: 168h                              # optional: usage older than this is forgotten
 *   strength: 10                              # k; 0 = split by weight alone
 *   namespaceOrder: false                     # jobs of the namespace that used least first
 * </pre>
 *
 * Every unknown key, plugin, action or argument is refused with its path ({@code
 * tiers[1].plugins[0].arguments.binpack.weight}), so a typo never silently falls back to a default.
 */
public final class SchedulerConfigurationParser {

  private static final Set<String> ROOT_KEYS =
      Set.of("actions", "tiers", "configurations", "defaultJobQueuePolicy", "topology", "fairness");

  /**
   * The plugin that orders jobs under each job order; a default naming a disabled one would order
   * nothing.
   */
  private static final Map<JobQueuePolicy, String> ORDERING_PLUGIN =
      Map.of(JobQueuePolicy.PRIORITY, "priority", JobQueuePolicy.DRF, "drf");

  private final ConfigurationVocabulary vocabulary;

  public SchedulerConfigurationParser(ConfigurationVocabulary vocabulary) {
    this.vocabulary = vocabulary;
  }

  public SchedulerConfiguration parse(String yamlText) {
    Object root = load(yamlText);
    Map<String, Object> rootMap = asMap(root, "(root)");
    rejectUnknownKeys(rootMap, ROOT_KEYS, "");
    List<String> actionNames = parseActionNames(rootMap.get("actions"));
    Map<String, Arguments> actionArguments =
        parseActionArguments(rootMap.get("configurations"), actionNames);
    List<ActionConfiguration> actions = new ArrayList<>();
    for (String name : actionNames) {
      actions.add(
          new ActionConfiguration(name, actionArguments.getOrDefault(name, Arguments.DEFAULTS)));
    }
    List<TierConfiguration> tiers = parseTiers(rootMap.get("tiers"));
    JobQueuePolicy defaultJobQueuePolicy =
        parseDefaultJobQueuePolicy(rootMap.get("defaultJobQueuePolicy"), tiers);
    return new SchedulerConfiguration(
        actions,
        tiers,
        defaultJobQueuePolicy,
        parseTopology(rootMap.get("topology")),
        parseFairness(rootMap.get("fairness")));
  }

  private static final ArgumentSpec<Duration> PREFERRED_WAIT =
      ArgumentSpec.duration("preferredWait", TopologyLevels.DEFAULT_PREFERRED_WAIT);

  private static final ArgumentSpec<Duration> HALF_LIFE =
      ArgumentSpec.duration("halfLife", FairnessConfiguration.DEFAULT_HALF_LIFE);

  /** Its default is never used: a window not given is none. */
  private static final ArgumentSpec<Duration> WINDOW =
      ArgumentSpec.duration("window", Duration.ofDays(7));

  private static final ArgumentSpec<Double> STRENGTH =
      ArgumentSpec.decimal(
          "strength",
          FairnessConfiguration.DEFAULT_STRENGTH,
          0,
          FairnessConfiguration.MAX_STRENGTH);

  private static FairnessConfiguration parseFairness(Object raw) {
    if (raw == null) {
      return FairnessConfiguration.DEFAULT;
    }
    Map<String, Object> fairness = asMap(raw, "fairness");
    rejectUnknownKeys(
        fairness, Set.of("halfLife", "window", "strength", "namespaceOrder"), "fairness.");
    Duration halfLife = fairnessValue(fairness, HALF_LIFE);
    Duration window = fairness.get(WINDOW.name()) == null ? null : fairnessValue(fairness, WINDOW);
    double strength = fairnessValue(fairness, STRENGTH);
    Object namespaceOrder = fairness.get("namespaceOrder");
    if (namespaceOrder != null && !(namespaceOrder instanceof Boolean)) {
      throw new InvalidConfigurationException(
          "fairness.namespaceOrder: expected true or false, got '" + namespaceOrder + "'");
    }
    return new FairnessConfiguration(
        halfLife, window, strength, Boolean.TRUE.equals(namespaceOrder));
  }

  private static <T> T fairnessValue(Map<String, Object> fairness, ArgumentSpec<T> spec) {
    Object raw = fairness.get(spec.name());
    if (raw == null) {
      return spec.defaultValue();
    }
    try {
      return spec.convert(raw);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException("fairness." + spec.name() + ": " + e.getMessage(), e);
    }
  }

  private static TopologyLevels parseTopology(Object raw) {
    if (raw == null) {
      return TopologyLevels.NONE;
    }
    Map<String, Object> topology = asMap(raw, "topology");
    rejectUnknownKeys(topology, Set.of("levels", "preferredWait"), "topology.");
    Object rawLevels = topology.get("levels");
    if (rawLevels == null) {
      throw new InvalidConfigurationException(
          "topology.levels: missing; list node-label keys from the widest level to the narrowest");
    }
    List<?> levels = asList(rawLevels, "topology.levels");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < levels.size(); i++) {
      if (!(levels.get(i) instanceof String key) || key.isBlank()) {
        throw new InvalidConfigurationException(
            "topology.levels[" + i + "]: expected a node-label key, got '" + levels.get(i) + "'");
      }
      if (keys.contains(key.trim())) {
        throw new InvalidConfigurationException(
            "topology.levels[" + i + "]: level '" + key.trim() + "' is listed twice");
      }
      keys.add(key.trim());
    }
    Duration preferredWait = TopologyLevels.DEFAULT_PREFERRED_WAIT;
    Object rawWait = topology.get("preferredWait");
    if (rawWait != null) {
      try {
        // 0 spreads a gang at once, as a soft level does without waiting.
        preferredWait =
            rawWait.toString().trim().matches("0+(s|ms|m|h)?")
                ? Duration.ZERO
                : PREFERRED_WAIT.convert(rawWait);
      } catch (IllegalArgumentException e) {
        throw new InvalidConfigurationException("topology.preferredWait: " + e.getMessage(), e);
      }
    }
    return new TopologyLevels(keys, preferredWait);
  }

  private JobQueuePolicy parseDefaultJobQueuePolicy(Object raw, List<TierConfiguration> tiers) {
    if (raw == null) {
      return JobQueuePolicy.PRIORITY;
    }
    JobQueuePolicy policy;
    try {
      policy = JobQueuePolicy.parse(String.valueOf(raw));
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException("defaultJobQueuePolicy: " + e.getMessage(), e);
    }
    String plugin = ORDERING_PLUGIN.get(policy);
    boolean enabled =
        tiers.stream()
            .flatMap(tier -> tier.plugins().stream())
            .anyMatch(p -> p.name().equals(plugin));
    if (vocabulary.pluginNames().contains(plugin) && !enabled) {
      throw new InvalidConfigurationException(
          "defaultJobQueuePolicy: "
              + raw
              + " orders jobs with plugin '"
              + plugin
              + "', which no tier enables");
    }
    return policy;
  }

  private static Object load(String yamlText) {
    if (yamlText == null || yamlText.isBlank()) {
      throw new InvalidConfigurationException("scheduler configuration is empty");
    }
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    try {
      return new Yaml(new SafeConstructor(options)).load(yamlText);
    } catch (YAMLException e) {
      throw new InvalidConfigurationException(
          "scheduler configuration is not valid YAML: " + e.getMessage(), e);
    }
  }

  private List<String> parseActionNames(Object raw) {
    if (raw == null) {
      throw new InvalidConfigurationException(
          "actions: missing; list the actions to run, e.g. \"enqueue, allocate, backfill\"");
    }
    List<String> names = new ArrayList<>();
    if (raw instanceof String text) {
      for (String part : text.split(",")) {
        if (!part.isBlank()) {
          names.add(part.trim());
        }
      }
    } else if (raw instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String name) || name.isBlank()) {
          throw new InvalidConfigurationException(
              "actions[" + i + "]: expected an action name, got '" + list.get(i) + "'");
        }
        names.add(name.trim());
      }
    } else {
      throw new InvalidConfigurationException(
          "actions: expected a comma-separated string or a list, got '" + raw + "'");
    }
    if (names.isEmpty()) {
      throw new InvalidConfigurationException("actions: at least one action is required");
    }
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (!vocabulary.actionNames().contains(name)) {
        throw new InvalidConfigurationException(
            "actions["
                + i
                + "]: unknown action '"
                + name
                + "'; known actions: "
                + new TreeSet<>(vocabulary.actionNames()));
      }
      if (names.indexOf(name) != i) {
        throw new InvalidConfigurationException(
            "actions[" + i + "]: action '" + name + "' is listed twice");
      }
    }
    return names;
  }

  private Map<String, Arguments> parseActionArguments(Object raw, List<String> actionNames) {
    Map<String, Arguments> byAction = new LinkedHashMap<>();
    if (raw == null) {
      return byAction;
    }
    List<?> entries = asList(raw, "configurations");
    for (int i = 0; i < entries.size(); i++) {
      String path = "configurations[" + i + "]";
      Map<String, Object> entry = asMap(entries.get(i), path);
      rejectUnknownKeys(entry, Set.of("name", "arguments"), path + ".");
      String name = requireName(entry, path);
      ArgumentSchema schema =
          vocabulary
              .actionArguments(name)
              .orElseThrow(
                  () ->
                      new InvalidConfigurationException(
                          path
                              + ".name: unknown action '"
                              + name
                              + "'; known actions: "
                              + new TreeSet<>(vocabulary.actionNames())));
      if (!actionNames.contains(name)) {
        throw new InvalidConfigurationException(
            path + ".name: action '" + name + "' is configured but not listed in actions");
      }
      if (byAction.containsKey(name)) {
        throw new InvalidConfigurationException(
            path + ".name: action '" + name + "' is configured twice");
      }
      byAction.put(
          name,
          parseArguments(entry.get("arguments"), schema, path + ".arguments", "action " + name));
    }
    return byAction;
  }

  private List<TierConfiguration> parseTiers(Object raw) {
    if (raw == null) {
      throw new InvalidConfigurationException(
          "tiers: missing; at least one tier of plugins is required");
    }
    List<?> tierList = asList(raw, "tiers");
    List<TierConfiguration> tiers = new ArrayList<>();
    Set<String> seen = new TreeSet<>();
    for (int t = 0; t < tierList.size(); t++) {
      String tierPath = "tiers[" + t + "]";
      Map<String, Object> tier = asMap(tierList.get(t), tierPath);
      rejectUnknownKeys(tier, Set.of("plugins"), tierPath + ".");
      List<?> pluginList = asList(tier.get("plugins"), tierPath + ".plugins");
      List<PluginConfiguration> plugins = new ArrayList<>();
      for (int p = 0; p < pluginList.size(); p++) {
        String path = tierPath + ".plugins[" + p + "]";
        Map<String, Object> plugin = asMap(pluginList.get(p), path);
        rejectUnknownKeys(plugin, Set.of("name", "arguments"), path + ".");
        String name = requireName(plugin, path);
        ArgumentSchema schema =
            vocabulary
                .pluginArguments(name)
                .orElseThrow(
                    () ->
                        new InvalidConfigurationException(
                            path
                                + ".name: unknown plugin '"
                                + name
                                + "'; known plugins: "
                                + new TreeSet<>(vocabulary.pluginNames())));
        if (!seen.add(name)) {
          throw new InvalidConfigurationException(
              path + ".name: plugin '" + name + "' is enabled twice");
        }
        plugins.add(
            new PluginConfiguration(
                name,
                parseArguments(
                    plugin.get("arguments"), schema, path + ".arguments", "plugin " + name)));
      }
      tiers.add(new TierConfiguration(plugins));
    }
    return tiers;
  }

  private static Arguments parseArguments(
      Object raw, ArgumentSchema schema, String path, String owner) {
    if (raw == null) {
      return Arguments.DEFAULTS;
    }
    Map<String, Object> flat = new LinkedHashMap<>();
    flatten(asMap(raw, path), "", flat);
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : flat.entrySet()) {
      String argumentPath = path + "." + entry.getKey();
      ArgumentSpec<?> spec =
          schema
              .find(entry.getKey())
              .orElseThrow(
                  () ->
                      new InvalidConfigurationException(
                          argumentPath
                              + ": unknown argument '"
                              + entry.getKey()
                              + "' for "
                              + owner
                              + "; known arguments: "
                              + schema.sortedNames()));
      try {
        values.put(spec.name(), spec.convert(entry.getValue()));
      } catch (IllegalArgumentException e) {
        throw new InvalidConfigurationException(argumentPath + ": " + e.getMessage(), e);
      }
    }
    return new Arguments(values);
  }

  /**
   * Turns {@code binpack: {weight: 2}} into {@code binpack.weight: 2}, so both spellings mean the
   * same.
   */
  private static void flatten(Map<String, Object> map, String prefix, Map<String, Object> into) {
    for (Map.Entry<String, Object> entry : map.entrySet()) {
      String key = prefix + entry.getKey();
      if (entry.getValue() instanceof Map<?, ?> nested) {
        flatten(asMap(nested, key), key + ".", into);
      } else {
        into.put(key, entry.getValue());
      }
    }
  }

  private static String requireName(Map<String, Object> entry, String path) {
    Object name = entry.get("name");
    if (!(name instanceof String text) || text.isBlank()) {
      throw new InvalidConfigurationException(path + ".name: missing or not a string");
    }
    return text.trim();
  }

  private static void rejectUnknownKeys(
      Map<String, Object> map, Set<String> known, String pathPrefix) {
    for (String key : map.keySet()) {
      if (!known.contains(key)) {
        throw new InvalidConfigurationException(
            pathPrefix
                + key
                + ": unknown key '"
                + key
                + "'; expected one of "
                + new TreeSet<>(known));
      }
    }
  }

  private static Map<String, Object> asMap(Object raw, String path) {
    if (!(raw instanceof Map<?, ?> map)) {
      throw new InvalidConfigurationException(path + ": expected a mapping, got '" + raw + "'");
    }
    Map<String, Object> typed = new LinkedHashMap<>();
    map.forEach((key, value) -> typed.put(String.valueOf(key), value));
    return typed;
  }

  private static List<?> asList(Object raw, String path) {
    if (!(raw instanceof List<?> list)) {
      throw new InvalidConfigurationException(path + ": expected a list, got '" + raw + "'");
    }
    return list;
  }
}
