package io.tyrl.arranger.testing.chaos;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.LocalCluster;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedKubelet;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import io.tyrl.arranger.testing.bench.PromText;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The endurance run behind {@code scripts/soak.sh}: the local cluster with two scheduler and two
 * controller replicas, a steady stream of TYJobs for the given hours, a worker pod failed now and
 * then, the leader of one service or the other killed now and then (started again under a new name,
 * as a Deployment would), finished jobs deleted (as a TTL would). Every minute each replica is made
 * to collect its garbage and its heap, live threads, informer caches and cycle histogram are read.
 * Ends with {@code soak hours=… jobs=… lost=… stuck=… heap-slope-mib-per-h=… threads-slope-per-h=…
 * cycle-p99-ms-first-hour=… cycle-p99-ms-last-hour=…}; exit code 0 only when nothing was lost or
 * stuck and every takeover happened.
 */
public final class SoakRun {

  private static final String NAMESPACE = "soak";
  private static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration JANITOR_EVERY = Duration.ofSeconds(30);
  private static final Duration PROGRESS_EVERY = Duration.ofMinutes(10);
  private static final String CYCLE_TIMER = "arranger_scheduler_e2e_scheduling_duration_seconds";

  /**
   * A replica's first minutes in a role (after its start, or after taking over from a killed
   * leader) are left out of its slopes: the JVM warms up and a new leader starts its writers.
   */
  private static final Duration SETTLE = Duration.ofMinutes(5);

  /**
   * The shortest stretch of one role a slope is taken over (a quarter of a shorter run): with a
   * leader killed every 30 minutes, alternating services, each role lasts an hour.
   */
  private static final Duration STEADY_SPAN = Duration.ofMinutes(30);

  /** A JobStream job: a leader and 1 to 3 workers, so 3 pods on average. */
  private static final double PODS_PER_STREAM_JOB = 3;

  private SoakRun() {}

  /**
   * Command-line options of a soak run.
   *
   * @param podsPerSecond the stream's rate in pods; the default is what this two-core machine keeps
   *     up with for a whole job's life (created, placed, run, a worker failed and replaced, ended,
   *     deleted), about 70 % CPU: half of what the end-to-end benchmark placed (88 of 176 pods/s),
   *     which counts placement alone, left thousands of jobs stuck within ten minutes
   *     (docs/performance.md)
   */
  record Options(
      double hours,
      long seed,
      int nodes,
      double podsPerSecond,
      Duration restartEvery,
      Duration podFailureEvery,
      Duration sampleEvery,
      Duration leaderRunTime,
      Duration stuckAfter,
      Path schedulerJar,
      Path controllerJar,
      Path workDir) {

    static final String USAGE =
        "usage: SoakRun --scheduler-jar JAR --controller-jar JAR [--hours H] [--seed S] [--nodes N]"
            + " [--pods-per-second P] [--restart-every-minutes M] [--pod-failure-every-seconds S]"
            + " [--sample-every-seconds S] [--leader-run-time SECONDS] [--stuck-after SECONDS]"
            + " [--work-dir DIR]";

    static Options parse(String[] args) {
      double hours = 2;
      long seed = System.currentTimeMillis();
      int nodes = 100;
      double podsPerSecond = 15;
      Duration restartEvery = Duration.ofMinutes(30);
      Duration podFailureEvery = Duration.ofSeconds(30);
      Duration sampleEvery = Duration.ofMinutes(1);
      Duration leaderRunTime = Duration.ofSeconds(8);
      Duration stuckAfter = Duration.ofSeconds(180);
      Path schedulerJar = null;
      Path controllerJar = null;
      Path workDir = Path.of(".local-cluster", "soak");
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--hours" -> hours = Double.parseDouble(value(args, ++i));
          case "--seed" -> seed = Long.parseLong(value(args, ++i));
          case "--nodes" -> nodes = Integer.parseInt(value(args, ++i));
          case "--pods-per-second" -> podsPerSecond = Double.parseDouble(value(args, ++i));
          case "--restart-every-minutes" ->
              restartEvery = Duration.ofMinutes(Long.parseLong(value(args, ++i)));
          case "--pod-failure-every-seconds" ->
              podFailureEvery = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--sample-every-seconds" ->
              sampleEvery = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--leader-run-time" ->
              leaderRunTime = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--stuck-after" -> stuckAfter = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--scheduler-jar" -> schedulerJar = Path.of(value(args, ++i));
          case "--controller-jar" -> controllerJar = Path.of(value(args, ++i));
          case "--work-dir" -> workDir = Path.of(value(args, ++i));
          default ->
              throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
        }
      }
      if (schedulerJar == null || controllerJar == null) {
        throw new IllegalArgumentException("--scheduler-jar and --controller-jar are required");
      }
      if (!(hours > 0) || !(podsPerSecond > 0) || nodes < 1) {
        throw new IllegalArgumentException(
            "--hours, --pods-per-second and --nodes must be positive, got "
                + hours
                + ", "
                + podsPerSecond
                + ", "
                + nodes);
      }
      for (Duration every : List.of(restartEvery, podFailureEvery, sampleEvery)) {
        if (every.isNegative() || every.isZero()) {
          throw new IllegalArgumentException("every interval must be positive; " + USAGE);
        }
      }
      return new Options(
          hours,
          seed,
          nodes,
          podsPerSecond,
          restartEvery,
          podFailureEvery,
          sampleEvery,
          leaderRunTime,
          stuckAfter,
          schedulerJar,
          controllerJar,
          workDir);
    }

    private static String value(String[] args, int index) {
      if (index >= args.length) {
        throw new IllegalArgumentException(args[index - 1] + " needs a value; " + USAGE);
      }
      return args[index];
    }
  }

  /** What one replica said at one sample. */
  private record ReplicaSample(
      double seconds,
      boolean leader,
      double heapMiB,
      double threads,
      Map<String, Double> informerObjects,
      Map<Double, Double> cycleBuckets) {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    Files.createDirectories(options.workDir());
    LongRun.exitWith("soak", running -> run(options, running));
  }

  private static int run(Options options, List<AutoCloseable> running) throws Exception {
    Random random = new Random(options.seed());
    log(
        "seed %d, %.2f h, %d nodes, %.0f pods/s, a leader killed every %d min, a worker failed every"
            + " %d s, work dir %s",
        options.seed(),
        options.hours(),
        options.nodes(),
        options.podsPerSecond(),
        options.restartEvery().toMinutes(),
        options.podFailureEvery().toSeconds(),
        options.workDir().toAbsolutePath());
    ControlPlane controlPlane = ControlPlane.start(KubeApiServerExtension.SERVICE_IDENTITIES);
    running.add(controlPlane);
    ApiClient admin = controlPlane.adminClient();
    LocalCluster.populate(admin, LocalCluster.fleet(options.nodes()));
    new CoreV1Api(admin)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE)))
        .execute();
    Path kubeconfig =
        controlPlane
            .writeKubeconfig(options.workDir().resolve("kubeconfig"), ControlPlane.ADMIN)
            .toAbsolutePath();
    ApiClient watchClient = controlPlane.adminClient();
    watchClient.setReadTimeout(0);
    running.add(
        new SimulatedNodeAgent(
                watchClient,
                admin,
                new SimulatedNodeAgent.Timing(Duration.ofSeconds(1), options.leaderRunTime()))
            .start());

    Path logs = options.workDir().toAbsolutePath();
    ShortLeaseServices started =
        ShortLeaseServices.start(
            admin,
            kubeconfig,
            options.schedulerJar(),
            options.controllerJar(),
            logs,
            Map.of(),
            List.of("-Xmx512m", "-XX:+UseSerialGC"),
            running);
    ReplicaSet schedulers = started.schedulers();
    ReplicaSet controllers = started.controllers();
    log("2 schedulers and 2 controllers ready (logs in %s)", logs);

    ClusterInvariants invariants = new ClusterInvariants(options.stuckAfter());
    ApiClient sampleClient = controlPlane.adminClient();
    sampleClient.setReadTimeout(10_000);
    ClusterSampler sampler =
        new ClusterSampler(sampleClient, watchClient, invariants, Duration.ofSeconds(5)).start();
    running.add(sampler);
    Duration interval =
        Duration.ofNanos((long) (PODS_PER_STREAM_JOB / options.podsPerSecond() * 1e9));
    JobStream stream =
        new JobStream(admin, NAMESPACE, "soak", interval, invariants, random.nextLong()).start();
    running.add(stream);

    Map<String, List<ReplicaSample>> samples = new TreeMap<>();
    SimulatedKubelet kubelet = new SimulatedKubelet(admin);
    long start = System.nanoTime();
    long end = start + (long) (options.hours() * 3600e9);
    long nextSample = start;
    long nextRestart = start + options.restartEvery().toNanos();
    long nextFailure = start + options.podFailureEvery().toNanos();
    long nextJanitor = start + JANITOR_EVERY.toNanos();
    long nextProgress = start + PROGRESS_EVERY.toNanos();
    int restarts = 0;
    int failedTakeovers = 0;
    int podFailures = 0;
    int deleted = 0;
    List<ReplicaSet> services = List.of(schedulers, controllers);
    while (System.nanoTime() < end) {
      long now = System.nanoTime();
      if (now >= nextSample) {
        sample(services, (now - start) / 1e9, samples);
        nextSample += options.sampleEvery().toNanos();
      }
      if (now >= nextRestart) {
        ReplicaSet target = services.get(restarts % services.size());
        ReplicaSet.Kill kill = target.killLeader();
        target.replace(kill.identity());
        Optional<Duration> takeover = target.awaitTakeover(kill, TAKEOVER_TIMEOUT);
        restarts++;
        if (takeover.isEmpty()) {
          failedTakeovers++;
        }
        log(
            "killed %s leader %s; %s",
            target.service(),
            kill.identity(),
            takeover
                .map(d -> "taken over after %.1f s".formatted(d.toMillis() / 1000.0))
                .orElse("NO takeover"));
        nextRestart += options.restartEvery().toNanos();
      }
      if (now >= nextFailure) {
        podFailures += failOneWorker(admin, kubelet, random) ? 1 : 0;
        nextFailure += options.podFailureEvery().toNanos();
      }
      if (now >= nextJanitor) {
        deleted += deleteSucceeded(admin, invariants);
        nextJanitor += JANITOR_EVERY.toNanos();
      }
      if (now >= nextProgress) {
        log(
            "%.0f min: %d jobs submitted (%d refused), %d deleted once Succeeded, %d worker pods"
                + " failed, %d leaders killed; lost %d, stuck %d; informer objects %s",
            (now - start) / 60e9,
            stream.submitted(),
            stream.refused(),
            deleted,
            podFailures,
            restarts,
            invariants.lostJobs(),
            invariants.stuckJobs(),
            latestInformerObjects(samples));
        nextProgress += PROGRESS_EVERY.toNanos();
      }
      Poll.sleep(Duration.ofMillis(200));
    }
    double hours = (System.nanoTime() - start) / 3600e9;
    stream.close();
    log(
        "stream stopped after %d jobs; waiting up to 5 min for every job to finish",
        stream.submitted());
    Poll.until(
        () -> invariants.jobs().allAccountedFor(), Duration.ofMinutes(5), Duration.ofSeconds(1));
    Poll.sleep(Duration.ofSeconds(1));
    sampler.close();
    invariants.closeBooks();
    // The invariants were written for the chaos run, sampled every 300 ms and with no pod failing:
    // here, sampled every 5 s and with workers failed on purpose, a failed worker's replacement
    // can read as a pod created again, or placed elsewhere, without the steps between.
    invariants.violations().forEach(v -> log("invariant check (see above): %s", v));

    double window = Math.min(3600, hours * 3600 / 2);
    double steadySpan = Math.min(STEADY_SPAN.toSeconds(), hours * 3600 / 4);
    double heapSlope = worstSlope(samples, ReplicaSample::heapMiB, steadySpan);
    double threadsSlope = worstSlope(samples, ReplicaSample::threads, steadySpan);
    Map<Double, Double> firstHour = cycleBuckets(samples, 0, window);
    Map<Double, Double> lastHour = cycleBuckets(samples, hours * 3600 - window, hours * 3600);
    double firstP99 = SoakSeries.quantileMillis(firstHour, 0.99);
    double lastP99 = SoakSeries.quantileMillis(lastHour, 0.99);
    log(
        "cycle p99 within its bucket: first hour %s ms, last hour %s ms (the buckets' upper bounds:"
            + " %s and %s ms; %s and %s cycles)",
        fmt(firstP99),
        fmt(lastP99),
        fmt(SoakSeries.quantileBoundMillis(firstHour, 0.99)),
        fmt(SoakSeries.quantileBoundMillis(lastHour, 0.99)),
        fmt(firstHour.getOrDefault(Double.POSITIVE_INFINITY, 0.0)),
        fmt(lastHour.getOrDefault(Double.POSITIVE_INFINITY, 0.0)));
    samples.forEach(
        (replica, series) ->
            log(
                "%s: %d samples, heap %s MiB, threads %s",
                replica,
                series.size(),
                series.isEmpty()
                    ? "-"
                    : fmt(series.get(0).heapMiB())
                        + " → "
                        + fmt(series.get(series.size() - 1).heapMiB()),
                series.isEmpty()
                    ? "-"
                    : fmt(series.get(0).threads())
                        + " → "
                        + fmt(series.get(series.size() - 1).threads())));
    System.out.printf(
        Locale.ROOT,
        "soak hours=%.2f jobs=%d lost=%d stuck=%d heap-slope-mib-per-h=%s threads-slope-per-h=%s"
            + " cycle-p99-ms-first-hour=%s cycle-p99-ms-last-hour=%s%n",
        hours,
        stream.submitted(),
        invariants.lostJobs(),
        invariants.stuckJobs(),
        fmt(heapSlope),
        fmt(threadsSlope),
        fmt(firstP99),
        fmt(lastP99));
    boolean clean =
        invariants.lostJobs() == 0 && invariants.stuckJobs() == 0 && failedTakeovers == 0;
    return clean ? 0 : 1;
  }

  /**
   * Every live, ready replica made to collect its garbage (so the heap read next is what survives a
   * full collection), then read.
   */
  private static void sample(
      List<ReplicaSet> services, double seconds, Map<String, List<ReplicaSample>> samples) {
    for (ReplicaSet service : services) {
      Optional<String> holder = service.holder();
      for (ServiceProcess replica : service.replicas()) {
        if (!replica.isAlive() || !replica.isReady()) {
          continue;
        }
        collectGarbage(replica.pid());
        HttpResponse<String> response = replica.get("/actuator/prometheus");
        if (response == null || response.statusCode() != 200) {
          continue;
        }
        PromText text = PromText.parse(response.body());
        Map<String, Double> informers = new TreeMap<>();
        Map<Double, Double> buckets = new TreeMap<>();
        for (PromText.Sample s : text.samples()) {
          if (s.name().equals("arranger_informer_objects")) {
            informers.merge(s.labels().getOrDefault("resource", "?"), s.value(), Double::sum);
          } else if (s.name().equals(CYCLE_TIMER + "_bucket")) {
            String le = s.labels().get("le");
            buckets.merge(
                "+Inf".equals(le) ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                s.value(),
                Double::sum);
          }
        }
        samples
            .computeIfAbsent(replica.name(), name -> new ArrayList<>())
            .add(
                new ReplicaSample(
                    seconds,
                    holder.isPresent() && holder.get().equals(replica.name()),
                    text.sum("jvm_memory_used_bytes", labels -> "heap".equals(labels.get("area")))
                        / (1 << 20),
                    text.sum("jvm_threads_live_threads"),
                    informers,
                    buckets));
      }
    }
  }

  private static void collectGarbage(long pid) {
    try {
      Process jcmd =
          new ProcessBuilder("jcmd", Long.toString(pid), "GC.run")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!jcmd.waitFor(20, TimeUnit.SECONDS)) {
        jcmd.destroyForcibly();
      }
    } catch (IOException e) {
      throw new IllegalStateException("jcmd is needed to collect a replica's garbage", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The steepest slope over any replica's stretch of steady work ({@link
   * SoakSeries#steadyStretches}: one role, settled for {@link #SETTLE}, spanning at least {@code
   * minSpanSeconds}); NaN when no stretch lasted that long.
   */
  private static double worstSlope(
      Map<String, List<ReplicaSample>> samples,
      java.util.function.ToDoubleFunction<ReplicaSample> value,
      double minSpanSeconds) {
    double worst = Double.NaN;
    for (List<ReplicaSample> series : samples.values()) {
      List<SoakSeries.RolePoint> points =
          series.stream()
              .map(s -> new SoakSeries.RolePoint(s.seconds(), value.applyAsDouble(s), s.leader()))
              .toList();
      for (List<SoakSeries.Point> stretch :
          SoakSeries.steadyStretches(points, SETTLE.toSeconds(), minSpanSeconds)) {
        double slope = SoakSeries.slopePerHour(stretch);
        if (Double.isNaN(worst) || slope > worst) {
          worst = slope;
        }
      }
    }
    return worst;
  }

  /**
   * The cycle histogram's buckets over what every scheduler replica observed between samples in
   * [from, to].
   */
  private static Map<Double, Double> cycleBuckets(
      Map<String, List<ReplicaSample>> samples, double fromSeconds, double toSeconds) {
    List<Map<Double, Double>> deltas = new ArrayList<>();
    for (List<ReplicaSample> series : samples.values()) {
      for (int i = 1; i < series.size(); i++) {
        ReplicaSample before = series.get(i - 1);
        ReplicaSample after = series.get(i);
        if (before.seconds() >= fromSeconds && after.seconds() <= toSeconds) {
          deltas.add(SoakSeries.delta(before.cycleBuckets(), after.cycleBuckets()));
        }
      }
    }
    return SoakSeries.sum(deltas);
  }

  private static String latestInformerObjects(Map<String, List<ReplicaSample>> samples) {
    Map<String, String> latest = new TreeMap<>();
    samples.forEach(
        (replica, series) -> {
          if (!series.isEmpty()) {
            latest.put(replica, series.get(series.size() - 1).informerObjects().toString());
          }
        });
    return latest.toString();
  }

  /** Fails one Running worker pod of the stream's jobs, at random, as a crashing actor would. */
  private static boolean failOneWorker(ApiClient admin, SimulatedKubelet kubelet, Random random) {
    try {
      List<V1Pod> running =
          new CoreV1Api(admin)
              .listNamespacedPod(NAMESPACE)
              .labelSelector(PodLabels.ROLE + "=" + PodLabels.WORKER)
              .fieldSelector("status.phase=Running")
              .execute()
              .getItems();
      if (running.isEmpty()) {
        return false;
      }
      V1Pod pod = running.get(random.nextInt(running.size()));
      kubelet.fail(NAMESPACE, pod.getMetadata().getName());
      return true;
    } catch (ApiException | RuntimeException e) {
      log("could not fail a worker pod: %s", e.getMessage());
      return false;
    }
  }

  /** Deletes the jobs seen Succeeded, as a TTL after finishing would; returns how many. */
  private static int deleteSucceeded(ApiClient admin, ClusterInvariants invariants) {
    int deleted = 0;
    for (String key : invariants.jobs().retireSucceeded()) {
      String name = key.substring(key.indexOf('/') + 1);
      try {
        ArrangerResources.tyJobs(admin).delete(NAMESPACE, name).throwsApiException();
        deleted++;
      } catch (ApiException e) {
        if (e.getCode() != 404) {
          log("could not delete finished job %s: %s", key, e.getMessage());
        }
      }
    }
    return deleted;
  }

  private static String fmt(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static void log(String format, Object... args) {
    System.out.printf(
        Locale.ROOT,
        "[soak %s] %s%n",
        Instant.now().toString().substring(11, 19),
        format.formatted(args));
    System.out.flush();
  }
}
