package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A local real control plane for people: etcd + kube-apiserver, Arranger's CRDs, the default Queue
 * and a fleet of simulated nodes, with a kubeconfig for kubectl. Runs until interrupted, then stops
 * every process it started.
 */
public final class LocalCluster {

  private LocalCluster() {}

  /** The simulated fleet: a quarter GPU nodes (64 cpu, 256Gi, 8 GPUs), the rest CPU nodes (32 cpu, 128Gi). */
  public static List<NodeSpec> fleet(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
    }
    List<NodeSpec> fleet = new ArrayList<>();
    int gpuNodes = Math.max(1, nodes / 4);
    for (int i = 0; i < nodes; i++) {
      boolean gpu = i < gpuNodes;
      NodeSpec.Builder node = NodeSpec.named((gpu ? "gpu-node-" : "cpu-node-") + i)
          .pods(110)
          .label("arranger.tyrl.io/simulated", "true")
          .label("node.kubernetes.io/instance-type", gpu ? "gpu-a100-x8" : "cpu-64");
      if (gpu) {
        node.cpu("64").memory("256Gi").gpus(8).label("accelerator", "a100");
      } else {
        node.cpu("32").memory("128Gi");
      }
      fleet.add(node.build());
    }
    return fleet;
  }

  /** Installs the CRDs, the default Queue and the simulated nodes. */
  public static void populate(ApiClient client, List<NodeSpec> fleet) {
    CustomResourceDefinitions.install(client);
    ArrangerResources.createQueueIfMissing(client, ArrangerResources.DEFAULT_QUEUE);
    SimulatedNodes nodes = new SimulatedNodes(client);
    fleet.forEach(nodes::register);
  }

  public static void main(String[] args) throws InterruptedException {
    int nodes = 8;
    Path kubeconfig = Path.of(".local-cluster", "kubeconfig");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(requireValue(args, ++i));
        case "--kubeconfig" -> kubeconfig = Path.of(requireValue(args, ++i));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: LocalCluster [--nodes N] [--kubeconfig FILE]");
      }
    }
    List<NodeSpec> fleet = fleet(nodes);
    ControlPlane controlPlane = ControlPlane.start(KubeApiServerExtension.SERVICE_IDENTITIES);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("stopping the control plane (kube-apiserver pid " + controlPlane.apiServerPid()
          + ", etcd pid " + controlPlane.etcdPid() + ")");
      controlPlane.close();
      stopped.countDown();
    }, "local-cluster-stop"));
    populate(controlPlane.adminClient(), fleet);
    Path written = controlPlane.writeKubeconfig(kubeconfig, ControlPlane.ADMIN).toAbsolutePath();
    System.out.printf("""

        Arranger's local control plane is up at %s with %d simulated nodes and the TYJob and Queue CRDs.
          export KUBECONFIG=%s
          kubectl get nodes
          kubectl get queues,tyjobs -A
        Press Ctrl-C to stop it.
        %n""", controlPlane.url(), fleet.size(), written);
    stopped.await();
  }

  private static String requireValue(String[] args, int index) {
    if (index >= args.length) {
      throw new IllegalArgumentException(args[index - 1] + " needs a value");
    }
    return args[index];
  }
}
