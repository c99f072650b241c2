package io.tyrl.arranger.scheduler.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.framework.Registry;
import io.tyrl.arranger.scheduler.framework.SchedulerVocabulary;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.plugins.GangPlugin;
import io.tyrl.arranger.scheduler.plugins.PriorityPlugin;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulerConfigurationParserTest {

  private final SchedulerConfigurationParser parser =
      new SchedulerConfigurationParser(
          new SchedulerVocabulary(BuiltInPlugins.registry(), BuiltInActions.registry()));

  @Test
  void validYamlBecomesATypedConfigurationWithDefaultsForWhatIsNotSet() {
    SchedulerConfiguration configuration =
        parser.parse(
            """
        actions: [enqueue, allocate]
        tiers:
          - plugins:
              - name: priority
              - name: gang
                arguments: {nonStrictReservationTimeout: 90s}
          - plugins:
              - name: nodeorder
                arguments:
                  defaultPolicy: LeaderFirst
                  cpu: {weight: 3}
                  gpu.weight: 5
        configurations:
          - name: allocate
            arguments: {percentageOfNodesToScore: 100}
        """);

    assertThat(configuration.actionNames()).containsExactly("enqueue", "allocate");
    assertThat(configuration.tiers()).hasSize(2);
    io.tyrl.arranger.scheduler.conf.Arguments gang =
        configuration.tiers().get(0).plugins().get(1).arguments();
    assertThat(gang.get(GangPlugin.NON_STRICT_RESERVATION_TIMEOUT))
        .isEqualTo(Duration.ofSeconds(90));
    io.tyrl.arranger.scheduler.conf.Arguments nodeOrder =
        configuration.tiers().get(1).plugins().get(0).arguments();
    assertThat(nodeOrder.get(NodeOrderPlugin.DEFAULT_POLICY)).isEqualTo(BasicPolicy.LEADER_FIRST);
    assertThat(nodeOrder.get(NodeOrderPlugin.CPU_WEIGHT)).isEqualTo(3);
    assertThat(nodeOrder.get(NodeOrderPlugin.GPU_WEIGHT)).isEqualTo(5);
    assertThat(nodeOrder.get(NodeOrderPlugin.MEMORY_WEIGHT)).isEqualTo(1);
    assertThat(configuration.actions().get(1).arguments().values())
        .containsEntry("percentageOfNodesToScore", 100);
  }

  @Test
  void topologyLevelsAreReadWidestFirstAndNoneWhenNotSet() {
    String tiers = "tiers:\n  - plugins:\n      - name: priority\n";

    assertThat(parser.parse("actions: allocate\n" + tiers).topologyLevels().keys()).isEmpty();
    assertThat(
            parser
                .parse(
                    "actions: allocate\n"
                        + tiers
                        + "topology:\n  levels:\n    - topology.kubernetes.io/zone\n"
                        + "    - example.com/rack\n    - kubernetes.io/hostname\n")
                .topologyLevels()
                .keys())
        .containsExactly(
            "topology.kubernetes.io/zone", "example.com/rack", "kubernetes.io/hostname");
  }

  @Test
  void thePreferredWaitIsThirtySecondsUnlessSetAndZeroSpreadsAtOnce() {
    String head = "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n";

    assertThat(parser.parse(head + "topology: {levels: [zone, rack]}\n").topologyLevels())
        .extracting(TopologyLevels::preferredWait)
        .isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(
            parser
                .parse(head + "topology: {levels: [zone, rack], preferredWait: 2m}\n")
                .topologyLevels()
                .preferredWait())
        .isEqualTo(java.time.Duration.ofMinutes(2));
    assertThat(
            parser
                .parse(head + "topology: {levels: [zone, rack], preferredWait: 0}\n")
                .topologyLevels()
                .preferredWait())
        .isZero();
  }

  @Test
  void theJobOrderOfQueuesWithoutOneIsPriorityUnlessTheConfigurationSaysOtherwise() {
    String tiers = "tiers:\n  - plugins:\n      - name: priority\n      - name: drf\n";

    assertThat(parser.parse("actions: allocate\n" + tiers).defaultJobQueuePolicy())
        .isEqualTo(JobQueuePolicy.PRIORITY);
    assertThat(
            parser
                .parse("actions: allocate\ndefaultJobQueuePolicy: DRF\n" + tiers)
                .defaultJobQueuePolicy())
        .isEqualTo(JobQueuePolicy.DRF);
  }

  @Test
  void theDefaultConfigurationParsesToTheDocumentedActionsAndTiers() {
    SchedulerConfiguration configuration =
        DefaultSchedulerConfiguration.parse(
            new SchedulerVocabulary(BuiltInPlugins.registry(), BuiltInActions.registry()));

    assertThat(configuration.actionNames())
        .containsExactly("enqueue", "reclaim", "allocate", "backfill");
    assertThat(configuration.tiers().get(0).plugins())
        .extracting(PluginConfiguration::name)
        .containsExactly("priority", "gang", "conformance");
    assertThat(configuration.tiers().get(1).plugins())
        .extracting(PluginConfiguration::name)
        .containsExactly("drf", "predicates", "proportion", "overcommit", "nodeorder");
  }

  static Stream<Arguments> refusals() {
    String tiers = "\ntiers:\n  - plugins:\n      - name: priority\n";
    return Stream.of(
        Arguments.of(
            "actions: \"enqueue, allocat\"" + tiers, "actions[1]: unknown action 'allocat'"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n  - plugins:\n      - name: binpak\n",
            "tiers[1].plugins[0].name: unknown plugin 'binpak'"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n  - plugins:\n"
                + "      - name: nodeorder\n        arguments:\n          binpack:\n            weight: 2\n",
            "tiers[1].plugins[0].arguments.binpack.weight: unknown argument 'binpack.weight' for plugin nodeorder"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: nodeorder\n        arguments: {cpu.weight: lots}\n",
            "tiers[0].plugins[0].arguments.cpu.weight: expected an integer within 0..100, got 'lots'"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: nodeorder\n        arguments: {defaultPolicy: Gang}\n",
            "tiers[0].plugins[0].arguments.defaultPolicy: expected one of BinPack, LeaderFirst"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: nodeorder\n        arguments: {gangPolicy: Random}\n",
            "tiers[0].plugins[0].arguments.gangPolicy: expected one of "
                + NodeOrderPlugin.NODE_ORDERS.stream()
                    .map(BasicPolicy::name)
                    .collect(Collectors.joining(", "))
                + ", got 'Random'"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: gang\n        arguments: {nonStrictReservationTimeout: soon}\n",
            "tiers[0].plugins[0].arguments.nonStrictReservationTimeout: expected a positive duration"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n      - name: priority\n",
            "tiers[0].plugins[1].name: plugin 'priority' is enabled twice"),
        Arguments.of(
            "actions: allocate, allocate" + tiers, "actions[1]: action 'allocate' is listed twice"),
        Arguments.of(
            "actions: allocate" + tiers + "schedulePeriod: 1s\n",
            "schedulePeriod: unknown key 'schedulePeriod'"),
        Arguments.of(
            "actions: allocate"
                + tiers
                + "configurations:\n  - name: allocate\n    arguments: {percentage: 5}\n",
            "configurations[0].arguments.percentage: unknown argument 'percentage' for action allocate"),
        Arguments.of("tiers: []\n", "actions: missing"),
        Arguments.of(
            "actions: allocate" + tiers + "defaultJobQueuePolicy: Fair\n",
            "defaultJobQueuePolicy: "),
        Arguments.of(
            "actions: allocate" + tiers + "defaultJobQueuePolicy: DRF\n",
            "defaultJobQueuePolicy: DRF orders jobs with plugin 'drf', which no tier enables"),
        Arguments.of("actions: [allocate\n", "not valid YAML"),
        Arguments.of("actions: allocate\nactions: enqueue" + tiers, "not valid YAML"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n    weight: 2\n",
            "tiers[0].weight: unknown key 'weight'"),
        Arguments.of(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: priority\n        weight: 2\n",
            "tiers[0].plugins[0].weight: unknown key 'weight'"),
        Arguments.of(
            "actions: allocate" + tiers + "configurations:\n  - name: allocate\n    args: {}\n",
            "configurations[0].args: unknown key 'args'"),
        Arguments.of("actions: allocate" + tiers + "topology: {}\n", "topology.levels: missing"),
        Arguments.of(
            "actions: allocate" + tiers + "topology: {levels: [zone, rack], racks: 3}\n",
            "topology.racks: unknown key 'racks'"),
        Arguments.of(
            "actions: allocate" + tiers + "topology: {levels: [zone, rack, zone]}\n",
            "topology.levels[2]: level 'zone' is listed twice"),
        Arguments.of(
            "actions: allocate" + tiers + "topology: {levels: [zone, 3]}\n",
            "topology.levels[1]: expected a node-label key, got '3'"),
        Arguments.of(
            "actions: allocate" + tiers + "topology: {levels: [zone], preferredWait: soon}\n",
            "topology.preferredWait: expected a positive duration such as 90s, 5m, 1h or PT5M,"
                + " got 'soon'"));
  }

  @Test
  void aPluginOrActionConfiguredWithoutArgumentsGetsItsDefaults() {
    SchedulerConfiguration configuration =
        parser.parse(
            "actions: allocate\ntiers:\n  - plugins:\n      - name: nodeorder\nconfigurations:\n  - name: allocate\n");

    assertThat(configuration.tiers().get(0).plugins().get(0).arguments().values()).isEmpty();
    assertThat(configuration.actions().get(0).arguments().values()).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("refusals")
  void invalidConfigurationIsRefusedNamingWhatAndWhere(String yaml, String expectedMessage) {
    assertThatThrownBy(() -> parser.parse(yaml))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(expectedMessage);
  }

  @Test
  void registeringAPluginOrActionTwiceIsRefused() {
    Registry<io.tyrl.arranger.scheduler.framework.PluginDescriptor> plugins =
        BuiltInPlugins.registry();
    assertThatThrownBy(() -> plugins.register(PriorityPlugin.descriptor()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("plugin 'priority' is already registered");
    assertThatThrownBy(
            () ->
                BuiltInActions.registry()
                    .register(io.tyrl.arranger.scheduler.actions.AllocateAction.descriptor()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("action 'allocate' is already registered");
  }
}
