package io.tyrl.arranger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.ProjectRoot;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.SimulatedNodes;
import io.tyrl.arranger.testing.TYJobBuilder;
import io.tyrl.arranger.testing.chaos.ReplicaSet;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Topology end to end: both services from their jars, the scheduler in its default configuration
 * with the cluster's levels added (rack, then host), on labelled simulated nodes of 8 GPUs — r1 of
 * five nodes, r2 of three, one of which a one-node job holds. A job asking {@code
 * spec.topology.required: example.com/rack} (a learner and two actors of 8 GPUs each) lands in one
 * rack: r1, the only one with its 24 GPUs free, and its status records r1. r2 then gains a node, so
 * it has exactly the job's 24 GPUs free. The scheduler is killed, and meanwhile the learner's node
 * fails (NotReady, its pod deleted): the controller reschedules the job and deletes every pod of
 * it. A new scheduler, which knows nothing of the job but its TYJob, places it back in r1, where
 * its leader was, though the domain order alone (the rack left fullest) would choose r2.
 */
class TopologyEndToEndIT {

  private static final String RACK = "example.com/rack";
  private static final String HOST = "kubernetes.io/hostname";
  private static final String JOB = "rl";

  private static NodeSpec node(String rack, int index) {
    String name = rack + "-n" + index;
    return NodeSpec.named(name)
        .cpu("32")
        .memory("128Gi")
        .gpus(8)
        .label(RACK, rack)
        .label(HOST, name)
        .build();
  }

  /** A one-node job holding all 8 GPUs of {@code node}. */
  private static void holder(TenancyCluster cluster, String name, String node) {
    TYJobBuilder.named(name)
        .namespace(TenancyCluster.JOBS_NAMESPACE)
        .leader("hold", "1", "1Gi")
        .leaderGpus("8")
        .workers("idle", 1, "1", "1Gi")
        .set("minWorkersNum", 1)
        .nodeSelector(HOST, node)
        .create(cluster.admin());
  }

  @Test
  void aRequiredJobLandsInOneRackAndItsLostLearnerComesBackInThatRack() throws Exception {
    List<NodeSpec> nodes = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      nodes.add(node("r1", i));
    }
    for (int i = 1; i <= 3; i++) {
      nodes.add(node("r2", i));
    }
    String configuration =
        Files.readString(ProjectRoot.find().resolve("config/scheduler/default.yaml"))
            + "topology:\n  levels: ["
            + RACK
            + ", "
            + HOST
            + "]\n";
    try (TenancyCluster cluster =
        TenancyCluster.start(
            "topology",
            nodes,
            Duration.ofMinutes(30),
            Map.of(),
            Map.of("arranger.scheduler.configuration", configuration))) {
      holder(cluster, "hold", "r2-n1");
      awaitRunningPods(cluster, "hold", 2);

      TYJobBuilder.named(JOB)
          .namespace(TenancyCluster.JOBS_NAMESPACE)
          .leader("learner", "1", "1Gi")
          .workers("actor", 2, "1", "1Gi")
          .everyContainerRequests(NodeSpec.GPU, "8")
          .set("minWorkersNum", 2)
          .set("topology", Map.of("required", RACK))
          .create(cluster.admin());
      List<V1Pod> first = awaitRunningPods(cluster, JOB, 3);
      assertThat(racksOf(first)).as("racks of the first placement").containsExactly("r1");
      V1alpha1TYJob placed = job(cluster);
      assertThat(placed.getStatus().getTopologyDomains()).isEqualTo(Map.of(RACK, "r1"));
      String learnerNode = nodeOf(first, JOB + "-learner");

      SimulatedNodes simulated = new SimulatedNodes(cluster.admin());
      NodeSpec added = node("r2", 4);
      simulated.register(
          new NodeSpec(
              added.name(),
              added.capacity(),
              withSimulatedKubelet(added.labels()),
              added.taints(),
              added.ready()));
      await("r2-n4 is schedulable: r2 has 24 GPUs free")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> isReady(simulated.read(added.name())));

      // With the scheduler down, the learner's node fails: it stops reporting Ready and its pod is
      // deleted at once, as the node's eviction would; the controller then deletes the actors.
      ReplicaSet.Kill kill = cluster.scheduler().killLeader();
      simulated.markNotReady(
          nodes.stream().filter(n -> n.name().equals(learnerNode)).findFirst().orElseThrow());
      new CoreV1Api(cluster.admin())
          .deleteNamespacedPod(JOB + "-learner", TenancyCluster.JOBS_NAMESPACE)
          .gracePeriodSeconds(0)
          .execute();
      await("the job is Rescheduling with none of its pods left")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(
              () ->
                  pods(cluster, JOB).isEmpty()
                      && "Rescheduling".equals(job(cluster).getStatus().getStage().getValue()));
      cluster.scheduler().replace(kill.identity()).awaitReady(Duration.ofMinutes(2));

      await("the job is rescheduled: its learner restarted once, three pods running again")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                V1alpha1TYJob now = job(cluster);
                assertThat(now.getStatus().getLeader().getRestarts()).isEqualTo(1);
                assertThat(
                        running(pods(cluster, JOB)).stream()
                            .filter(pod -> !pod.getSpec().getNodeName().equals(learnerNode))
                            .count())
                    .as(cluster.jobsSummary())
                    .isEqualTo(3);
              });
      List<V1Pod> again = running(pods(cluster, JOB));
      assertThat(racksOf(again))
          .as("racks after the reschedule (r2 had the room too, and is the rack left fullest)")
          .containsExactly("r1");
      assertThat(nodeOf(again, JOB + "-learner")).isNotEqualTo(learnerNode);
      assertThat(job(cluster).getStatus().getTopologyDomains()).isEqualTo(Map.of(RACK, "r1"));
    }
  }

  /** The labels of a node whose pods the simulated kubelet runs. */
  private static Map<String, String> withSimulatedKubelet(Map<String, String> labels) {
    Map<String, String> simulated = new TreeMap<>(labels);
    simulated.put(SimulatedNodeAgent.SIMULATED_LABEL, "true");
    return simulated;
  }

  private static boolean isReady(V1Node node) {
    return node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
        && (node.getSpec().getTaints() == null || node.getSpec().getTaints().isEmpty());
  }

  private static V1alpha1TYJob job(TenancyCluster cluster) throws ApiException {
    return ArrangerResources.tyJobs(cluster.admin())
        .get(TenancyCluster.JOBS_NAMESPACE, JOB)
        .throwsApiException()
        .getObject();
  }

  private static List<V1Pod> awaitRunningPods(TenancyCluster cluster, String job, int count) {
    await(job + "'s " + count + " pods run")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(running(pods(cluster, job))).as(cluster::jobsSummary).hasSize(count));
    try {
      return running(pods(cluster, job));
    } catch (ApiException e) {
      throw new IllegalStateException("pods of " + job + " unreadable: " + e.getCode(), e);
    }
  }

  /** The job's pods not being deleted. */
  private static List<V1Pod> pods(TenancyCluster cluster, String job) throws ApiException {
    return new CoreV1Api(cluster.admin())
            .listNamespacedPod(TenancyCluster.JOBS_NAMESPACE)
            .labelSelector(PodLabels.JOB_NAME + "=" + job)
            .execute()
            .getItems()
            .stream()
            .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
            .toList();
  }

  private static List<V1Pod> running(List<V1Pod> pods) {
    return pods.stream()
        .filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()))
        .toList();
  }

  private static String nodeOf(List<V1Pod> pods, String name) {
    return pods.stream()
        .filter(pod -> pod.getMetadata().getName().equals(name))
        .map(pod -> pod.getSpec().getNodeName())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no pod " + name + " among " + names(pods)));
  }

  private static Set<String> racksOf(List<V1Pod> pods) {
    Set<String> racks = new TreeSet<>();
    for (V1Pod pod : pods) {
      racks.add(pod.getSpec().getNodeName().substring(0, 2));
    }
    return racks;
  }

  private static Map<String, String> names(List<V1Pod> pods) {
    Map<String, String> byName = new TreeMap<>();
    pods.forEach(pod -> byName.put(pod.getMetadata().getName(), pod.getSpec().getNodeName()));
    return byName;
  }
}
