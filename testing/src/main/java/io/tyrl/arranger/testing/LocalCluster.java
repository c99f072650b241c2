package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A local real control plane for people: etcd + kube-apiserver, Arranger's CRDs, the default Queue
 * and a fleet of simulated nodes, with a kubeconfig for kubectl. Given the services' jars, it also
 * runs the simulated kubelet and both services as processes; given samples, it applies them and
 * follows the jobs until they finish. Stops every process it started on exit or Ctrl-C.
 */
public final class LocalCluster {

  private LocalCluster() {}

  /**
   * The simulated fleet: a quarter GPU nodes (64 cpu, 256Gi, 8 GPUs); of the rest, CPU nodes (32
   * cpu, 128Gi), the last two of which (with 8 nodes or more) form a dedicated pool, labelled
   * {@code pool.example.com/name=rl} and tainted {@code pool.example.com/dedicated=rl:NoSchedule},
   * as the samples that select a pool expect.
   */
  public static List<NodeSpec> fleet(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
    }
    List<NodeSpec> fleet = new ArrayList<>();
    int gpuNodes = Math.max(1, nodes / 4);
    int poolNodes = nodes >= 8 ? 2 : 0;
    for (int i = 0; i < nodes; i++) {
      boolean gpu = i < gpuNodes;
      boolean pool = i >= nodes - poolNodes;
      NodeSpec.Builder node =
          NodeSpec.named((gpu ? "gpu-node-" : pool ? "pool-node-" : "cpu-node-") + i)
              .pods(110)
              .label(SimulatedNodeAgent.SIMULATED_LABEL, "true")
              .label("node.kubernetes.io/instance-type", gpu ? "gpu-a100-x8" : "cpu-32");
      if (gpu) {
        node.cpu("64").memory("256Gi").gpus(8).label("accelerator", "a100");
      } else {
        node.cpu("32").memory("128Gi");
      }
      if (pool) {
        node.label("pool.example.com/name", "rl")
            .taint("pool.example.com/dedicated", "rl", "NoSchedule");
      }
      fleet.add(node.build());
    }
    return fleet;
  }

  /** Installs the CRDs, the default Queue and the simulated nodes. */
  public static void populate(ApiClient client, List<NodeSpec> fleet) {
    CustomResourceDefinitions.install(client);
    ArrangerResources.createQueueIfMissing(client, TYJobDefaults.QUEUE);
    SimulatedNodes nodes = new SimulatedNodes(client);
    fleet.forEach(nodes::register);
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    List<NodeSpec> fleet = fleet(options.nodes());
    ControlPlane controlPlane = ControlPlane.start(KubeApiServerExtension.SERVICE_IDENTITIES);
    List<AutoCloseable> running = new ArrayList<>();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (int i = running.size() - 1; i >= 0; i--) {
                    try {
                      running.get(i).close();
                    } catch (Exception e) {
                      System.err.println(
                          "could not stop " + running.get(i) + ": " + e.getMessage());
                    }
                  }
                  System.out.println(
                      "stopped the control plane (kube-apiserver pid "
                          + controlPlane.apiServerPid()
                          + ", etcd pid "
                          + controlPlane.etcdPid()
                          + ")");
                  controlPlane.close();
                  stopped.countDown();
                },
                "local-cluster-stop"));
    ApiClient admin = controlPlane.adminClient();
    populate(admin, fleet);
    Path written =
        controlPlane.writeKubeconfig(options.kubeconfig(), ControlPlane.ADMIN).toAbsolutePath();
    System.out.printf(
        "%nArranger's local control plane is up at %s with %d simulated nodes.%n"
            + "  export KUBECONFIG=%s%n  kubectl get nodes%n  kubectl get queues,tyjobs -A%n",
        controlPlane.url(), fleet.size(), written);
    if (options.schedulerJar() != null) {
      running.add(
          new SimulatedNodeAgent(
                  controlPlane.adminClient(),
                  admin,
                  new SimulatedNodeAgent.Timing(Duration.ofSeconds(1), options.leaderRunTime()))
              .start());
      Path logs = written.getParent();
      for (String service : List.of("scheduler", "controller")) {
        Path jar = service.equals("scheduler") ? options.schedulerJar() : options.controllerJar();
        ServiceProcess process =
            ServiceProcess.start(
                service,
                jar,
                logs,
                Map.of("arranger.kubernetes.kubeconfig", written.toString()),
                List.of("-Xmx512m"));
        running.add(process);
        process.awaitReady(Duration.ofSeconds(120));
        System.out.printf(
            "  %s-service is up (pid %d, log %s)%n", service, process.pid(), process.log());
        if (service.equals("scheduler")) {
          System.out.printf(
              "  the operator's window: http://127.0.0.1:%d/ (sign in with the token of %s)%n",
              process.port(), written);
        }
      }
    }
    if (options.samples() != null) {
      List<String> created = SampleApplier.apply(admin, options.samples(), "default");
      System.out.printf("applied %d samples from %s%n", created.size(), options.samples());
      boolean done = JobProgress.follow(admin, options.timeout());
      if (!options.keep()) {
        System.exit(done ? 0 : 1);
      }
    }
    System.out.println("Press Ctrl-C to stop it.");
    stopped.await();
  }

  /** Command-line options of the local cluster. */
  record Options(
      int nodes,
      Path kubeconfig,
      Path schedulerJar,
      Path controllerJar,
      Path samples,
      Duration leaderRunTime,
      Duration timeout,
      boolean keep) {

    static Options parse(String[] args) {
      int nodes = 16;
      Path kubeconfig = Path.of(".local-cluster", "kubeconfig");
      Path schedulerJar = null;
      Path controllerJar = null;
      Path samples = null;
      Duration leaderRunTime = Duration.ofSeconds(15);
      Duration timeout = Duration.ofMinutes(5);
      boolean keep = false;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--nodes" -> nodes = Integer.parseInt(requireValue(args, ++i));
          case "--kubeconfig" -> kubeconfig = Path.of(requireValue(args, ++i));
          case "--scheduler-jar" -> schedulerJar = Path.of(requireValue(args, ++i));
          case "--controller-jar" -> controllerJar = Path.of(requireValue(args, ++i));
          case "--samples" -> samples = Path.of(requireValue(args, ++i));
          case "--leader-run-time" ->
              leaderRunTime = Duration.ofSeconds(Long.parseLong(requireValue(args, ++i)));
          case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(requireValue(args, ++i)));
          case "--keep" -> keep = true;
          default ->
              throw new IllegalArgumentException(
                  "unknown argument "
                      + args[i]
                      + "; usage: LocalCluster"
                      + " [--nodes N] [--kubeconfig FILE] [--scheduler-jar JAR --controller-jar JAR] [--samples DIR]"
                      + " [--leader-run-time SECONDS] [--timeout SECONDS] [--keep]");
        }
      }
      if ((schedulerJar == null) != (controllerJar == null)) {
        throw new IllegalArgumentException("--scheduler-jar and --controller-jar go together");
      }
      return new Options(
          nodes, kubeconfig, schedulerJar, controllerJar, samples, leaderRunTime, timeout, keep);
    }
  }

  private static String requireValue(String[] args, int index) {
    if (index >= args.length) {
      throw new IllegalArgumentException(args[index - 1] + " needs a value");
    }
    return args[index];
  }
}
