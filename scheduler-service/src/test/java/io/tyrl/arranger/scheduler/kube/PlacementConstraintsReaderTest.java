package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.ExistingPod;
import io.tyrl.arranger.scheduler.api.HostPort;
import io.tyrl.arranger.scheduler.api.LabelSelector;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PodAffinity;
import io.tyrl.arranger.scheduler.api.PodAffinityTerm;
import io.tyrl.arranger.scheduler.api.PreferredNodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TopologySpreadConstraint;
import io.tyrl.arranger.scheduler.api.WeightedPodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes side of placement constraints: every placement field of a pod spec reaches the
 * core.
 */
class PlacementConstraintsReaderTest {

  private static final JSON JSON = new JSON();

  private static final String AFFINITY_SPEC =
      """
      {"containers": [{"name": "main", "ports": [{"containerPort": 80, "hostPort": 8080},
                                                 {"containerPort": 53, "hostPort": 53, "protocol": "UDP", "hostIP": "10.0.0.1"},
                                                 {"containerPort": 9090}]}],
       "affinity": {
         "nodeAffinity": {
           "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
             {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["bad-node"]}],
              "matchExpressions": [{"key": "gpu", "operator": "Exists"}]}]},
           "preferredDuringSchedulingIgnoredDuringExecution": [
             {"weight": 30, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]},
         "podAffinity": {
           "requiredDuringSchedulingIgnoredDuringExecution": [
             {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "topology.kubernetes.io/zone"}],
           "preferredDuringSchedulingIgnoredDuringExecution": [
             {"weight": 5, "podAffinityTerm": {"labelSelector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["cache"]}]},
                                               "namespaces": ["infra"], "topologyKey": "kubernetes.io/hostname"}}]},
         "podAntiAffinity": {
           "requiredDuringSchedulingIgnoredDuringExecution": [
             {"labelSelector": {"matchLabels": {"app": "solo"}}, "namespaceSelector": {}, "topologyKey": "kubernetes.io/hostname"}],
           "preferredDuringSchedulingIgnoredDuringExecution": [
             {"weight": 7, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "noisy"}}, "topologyKey": "kubernetes.io/hostname"}}]}},
       "topologySpreadConstraints": [
         {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
          "labelSelector": {"matchLabels": {"app": "web"}}},
         {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway",
          "labelSelector": {"matchLabels": {"app": "web"}}}]}""";

  @Test
  void everyPlacementFieldOfAPodSpecIsRead() {
    PlacementConstraints constraints =
        PlacementConstraintsReader.constraints(JSON.deserialize(AFFINITY_SPEC, V1PodSpec.class));

    assertThat(constraints.requiredAffinity())
        .containsExactly(
            new NodeAffinityTerm(
                List.of(NodeSelectorRequirement.of("gpu", NodeSelectorOperator.EXISTS)),
                List.of(
                    NodeSelectorRequirement.of(
                        NodeAffinityTerm.NODE_NAME_FIELD,
                        NodeSelectorOperator.NOT_IN,
                        "bad-node"))));
    assertThat(constraints.preferredAffinity())
        .containsExactly(
            new PreferredNodeAffinityTerm(
                30,
                NodeAffinityTerm.of(
                    NodeSelectorRequirement.of("disk", NodeSelectorOperator.IN, "ssd"))));
    assertThat(constraints.hostPorts())
        .containsExactly(HostPort.tcp(8080), new HostPort(53, "UDP", "10.0.0.1"));
    PodAffinity affinity = constraints.podAffinity();
    assertThat(affinity.required())
        .containsExactly(
            PodAffinityTerm.of(
                LabelSelector.matchLabels("app", "db"), "topology.kubernetes.io/zone"));
    assertThat(affinity.preferred())
        .containsExactly(
            new WeightedPodAffinityTerm(
                5,
                new PodAffinityTerm(
                    LabelSelector.of(
                        Map.of(),
                        List.of(
                            NodeSelectorRequirement.of("tier", NodeSelectorOperator.IN, "cache"))),
                    Set.of("infra"),
                    false,
                    "kubernetes.io/hostname")));
    assertThat(affinity.requiredAnti())
        .containsExactly(
            new PodAffinityTerm(
                LabelSelector.matchLabels("app", "solo"),
                Set.of(),
                true,
                "kubernetes.io/hostname"));
    assertThat(affinity.preferredAnti())
        .containsExactly(
            new WeightedPodAffinityTerm(
                7,
                PodAffinityTerm.of(
                    LabelSelector.matchLabels("app", "noisy"), "kubernetes.io/hostname")));
    assertThat(affinity.spread())
        .containsExactly(
            new TopologySpreadConstraint(
                1, "topology.kubernetes.io/zone", true, LabelSelector.matchLabels("app", "web")),
            new TopologySpreadConstraint(
                2, "kubernetes.io/hostname", false, LabelSelector.matchLabels("app", "web")));
  }

  @Test
  void aSpecWithoutPlacementFieldsAsksNothing() {
    PlacementConstraints constraints =
        PlacementConstraintsReader.constraints(
            JSON.deserialize("{\"containers\": [{\"name\": \"main\"}]}", V1PodSpec.class));

    assertThat(constraints).isEqualTo(PlacementConstraints.NONE);
  }

  /**
   * Tasks carry their template's labels and the ones the controller adds; other pods on a node are
   * described.
   */
  @Test
  void tasksCarryTheirPodsLabelsAndForeignPodsTheirLabelsPortsAndAntiAffinity() {
    V1Node node =
        JSON.deserialize(
            """
        {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "16", "memory": "64Gi"},
         "conditions": [{"type": "Ready", "status": "True"}]}}""",
            V1Node.class);
    V1Pod foreign =
        JSON.deserialize(
            """
        {"metadata": {"namespace": "web", "name": "front", "labels": {"app": "front"}},
         "spec": {"nodeName": "n1", "containers": [{"name": "main", "ports": [{"containerPort": 80, "hostPort": 80}]}],
                  "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "front"}}, "topologyKey": "kubernetes.io/hostname"}]}}},
         "status": {"phase": "Running"}}""",
            V1Pod.class);
    V1alpha1TYJob job =
        JSON.deserialize(
            """
        {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-22T09:00:00Z"},
         "spec": {"minWorkersNum": 1,
           "leader": {"name": "learner", "template": {"metadata": {"labels": {"team": "games"}}, "spec": {"containers": [{"name": "l"}]}}},
           "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]}}""",
            V1alpha1TYJob.class);

    var snapshot =
        SnapshotAssembler.assemble(List.of(node), List.of(foreign), List.of(job), List.of())
            .snapshot();

    List<TaskInfo> tasks = snapshot.jobs().get(0).tasks();
    assertThat(tasks.get(0).labels())
        .isEqualTo(
            Map.of(
                "team",
                "games",
                "arranger.tyrl.io/job-name",
                "pong",
                "arranger.tyrl.io/role",
                "leader"));
    assertThat(tasks.get(1).labels())
        .isEqualTo(
            Map.of(
                "arranger.tyrl.io/job-name",
                "pong",
                "arranger.tyrl.io/role",
                "worker",
                "arranger.tyrl.io/worker-set",
                "actor",
                "arranger.tyrl.io/worker-index",
                "0"));
    assertThat(snapshot.nodes().get(0).existingPods())
        .containsExactly(
            new ExistingPod(
                "web",
                Map.of("app", "front"),
                List.of(HostPort.tcp(80)),
                List.of(
                    PodAffinityTerm.of(
                        LabelSelector.matchLabels("app", "front"), "kubernetes.io/hostname"))));
  }
}
