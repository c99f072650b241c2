package io.tyrl.arranger.testing.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The benchmark's command-line options, with their defaults. */
record BenchmarkOptions(
    int nodes,
    int pods,
    int repeats,
    int threads,
    int connections,
    Set<String> phases,
    Path projectRoot,
    String version,
    Path workDir,
    String serviceHeap,
    Map<String, String> schedulerProperties,
    Map<String, String> controllerProperties,
    int kubeSchedulerQps,
    Duration timeout,
    int settleSeconds,
    int sampleMillis,
    List<String> serviceJvmOptions,
    int apiServerProfileSeconds,
    int bigJobActors) {

  /** Every phase, in the order they run. */
  static final List<String> PHASES =
      List.of(
          CeilingPhase.NAME,
          KubeSchedulerPhase.NAME,
          JobsPathPhase.NAME,
          PodsOnlyPhase.NAME,
          ArrangerPhase.NAME,
          BigJobPhase.NAME);

  /** The most workers a TYJob may have (the CRD's bound), so the most a big job may have. */
  static final int MAX_BIG_JOB_ACTORS = 5000;

  /** The module's runnable jar, as the build leaves it. */
  Path jar(Path root, String module) {
    return root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
  }

  static final String USAGE =
      "usage: bench-e2e [--nodes N] [--pods M] [--repeats R] [--threads T]"
          + " [--connections C] [--phases ceiling,kube-scheduler,jobs,pods-only,arranger,big-job] [--big-job ACTORS] [--scheduler-property key=value]..."
          + " [--controller-property key=value]... [--service-heap 1g] [--service-jvm-option OPTION]..."
          + " [--kube-scheduler-qps Q] [--timeout SECONDS]"
          + " [--settle SECONDS] [--sample-ms MS] [--api-server-profile SECONDS] [--work-dir DIR]"
          + " --project-root DIR --version V";

  static BenchmarkOptions parse(String[] args) {
    int nodes = 5000;
    int pods = 10000;
    int repeats = 3;
    int threads = 32;
    int connections = 4;
    // The big job is a size of its own (--big-job), not a phase of the throughput sizes.
    Set<String> phases = new LinkedHashSet<>(PHASES);
    phases.remove(BigJobPhase.NAME);
    Path root = Path.of(System.getProperty("arranger.projectRoot", "."));
    String version = null;
    Path workDir = null;
    String heap = "1g";
    Map<String, String> schedulerProperties = new LinkedHashMap<>();
    Map<String, String> controllerProperties = new LinkedHashMap<>();
    int qps = 5000;
    Duration timeout = null;
    int settle = 5;
    int sampleMillis = 1000;
    List<String> serviceJvmOptions = new ArrayList<>();
    int apiServerProfileSeconds = 0;
    int bigJobActors = 0;
    boolean nodesGiven = false;
    boolean podsGiven = false;
    boolean phasesGiven = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> {
          nodes = positive(args, ++i);
          nodesGiven = true;
        }
        case "--pods" -> {
          pods = positive(args, ++i);
          podsGiven = true;
        }
        case "--big-job" -> bigJobActors = positive(args, ++i);
        case "--repeats" -> repeats = positive(args, ++i);
        case "--threads" -> threads = positive(args, ++i);
        case "--connections" -> connections = positive(args, ++i);
        case "--phases" -> {
          phases = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
          phasesGiven = true;
          for (String phase : phases) {
            if (!PHASES.contains(phase)) {
              throw new IllegalArgumentException("unknown phase " + phase + "; " + USAGE);
            }
          }
        }
        case "--project-root" -> root = Path.of(value(args, ++i));
        case "--version" -> version = value(args, ++i);
        case "--work-dir" -> workDir = Path.of(value(args, ++i));
        case "--service-heap" -> heap = value(args, ++i);
        case "--service-jvm-option" -> serviceJvmOptions.add(value(args, ++i));
        case "--scheduler-property" -> property(schedulerProperties, value(args, ++i));
        case "--controller-property" -> property(controllerProperties, value(args, ++i));
        case "--kube-scheduler-qps" -> qps = positive(args, ++i);
        case "--timeout" -> timeout = Duration.ofSeconds(positive(args, ++i));
        case "--settle" -> settle = Integer.parseInt(value(args, ++i));
        case "--sample-ms" -> sampleMillis = positive(args, ++i);
        case "--api-server-profile" -> apiServerProfileSeconds = positive(args, ++i);
        case "--help", "-h" -> {
          System.out.println(USAGE);
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
      }
    }
    if (bigJobActors > MAX_BIG_JOB_ACTORS) {
      throw new IllegalArgumentException(
          "--big-job must be at most " + MAX_BIG_JOB_ACTORS + " actors, got " + bigJobActors);
    }
    if (bigJobActors > 0) {
      // The size the big job was first measured at; the pods size only the services' warm-up.
      nodes = nodesGiven ? nodes : 48;
      pods = podsGiven ? pods : 512;
      phases = phasesGiven ? phases : new LinkedHashSet<>(List.of(BigJobPhase.NAME));
    }
    if (phases.contains(BigJobPhase.NAME) && bigJobActors == 0) {
      throw new IllegalArgumentException("the big-job phase needs --big-job ACTORS; " + USAGE);
    }
    if (pods < 8) {
      throw new IllegalArgumentException(
          "--pods must be at least 8 (one TYJob of a leader and 7 workers)");
    }
    if (version == null
        && (phases.contains(ArrangerPhase.NAME)
            || phases.contains(PodsOnlyPhase.NAME)
            || phases.contains(BigJobPhase.NAME))) {
      throw new IllegalArgumentException(
          "--version is needed to find the services' jars; " + USAGE);
    }
    if (timeout == null) {
      timeout = Duration.ofSeconds(Math.max(300, pods / 10));
    }
    return new BenchmarkOptions(
        nodes,
        pods,
        repeats,
        threads,
        connections,
        phases,
        root.toAbsolutePath(),
        version,
        workDir,
        heap,
        schedulerProperties,
        controllerProperties,
        qps,
        timeout,
        settle,
        sampleMillis,
        List.copyOf(serviceJvmOptions),
        apiServerProfileSeconds,
        bigJobActors);
  }

  private static void property(Map<String, String> properties, String assignment) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("expected key=value, got " + assignment);
    }
    properties.put(assignment.substring(0, eq), assignment.substring(eq + 1));
  }

  private static int positive(String[] args, int index) {
    int value = Integer.parseInt(value(args, index));
    if (value < 1) {
      throw new IllegalArgumentException(args[index - 1] + " must be at least 1, got " + value);
    }
    return value;
  }

  private static String value(String[] args, int index) {
    if (index >= args.length) {
      throw new IllegalArgumentException(args[index - 1] + " needs a value");
    }
    return args[index];
  }
}
