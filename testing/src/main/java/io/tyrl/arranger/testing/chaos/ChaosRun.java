package io.tyrl.arranger.testing.chaos;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import io.tyrl.arranger.testing.LocalCluster;
import io.tyrl.arranger.testing.MalformedTYJobs;
import io.tyrl.arranger.testing.ServiceProcess;
import io.tyrl.arranger.testing.SimulatedNodeAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The chaos run behind {@code scripts/chaos.sh}: the local cluster with two scheduler and two
 * controller replicas and a steady stream of good TYJobs; the leader of one service or the other
 * SIGKILLed at random moments (never giving its lease up), its replica started again under a new
 * name as a Deployment would; the API server frozen (SIGSTOP) once for the outage time; the
 * malformed corpus submitted; the invariants sampled all along. Ends with one summary line and exit
 * code 0 only when every count is zero, every takeover happened and the services recovered.
 */
public final class ChaosRun {

  private static final String JOBS_NAMESPACE = "chaos";
  private static final String MALFORMED_NAMESPACE = "chaos-malformed";

  private static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration READINESS_DROP_BOUND = Duration.ofSeconds(10);

  private ChaosRun() {}

  /** Command-line options of a chaos run. */
  record Options(
      int failovers,
      long seed,
      int nodes,
      Duration outage,
      Path malformed,
      Path schedulerJar,
      Path controllerJar,
      Path workDir,
      Duration stuckAfter,
      Duration jobInterval,
      Duration drainTimeout,
      Duration leaderRunTime) {

    static Options parse(String[] args) {
      int failovers = 50;
      long seed = System.currentTimeMillis();
      int nodes = 16;
      Duration outage = Duration.ofSeconds(60);
      Path malformed = null;
      Path schedulerJar = null;
      Path controllerJar = null;
      Path workDir = Path.of(".local-cluster", "chaos");
      Duration stuckAfter = Duration.ofSeconds(180);
      Duration jobInterval = Duration.ofSeconds(2);
      Duration drainTimeout = Duration.ofMinutes(5);
      Duration leaderRunTime = Duration.ofSeconds(8);
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--failovers" -> failovers = Integer.parseInt(value(args, ++i));
          case "--seed" -> seed = Long.parseLong(value(args, ++i));
          case "--nodes" -> nodes = Integer.parseInt(value(args, ++i));
          case "--outage" -> outage = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--malformed" -> malformed = Path.of(value(args, ++i));
          case "--scheduler-jar" -> schedulerJar = Path.of(value(args, ++i));
          case "--controller-jar" -> controllerJar = Path.of(value(args, ++i));
          case "--work-dir" -> workDir = Path.of(value(args, ++i));
          case "--stuck-after" -> stuckAfter = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--job-interval-ms" ->
              jobInterval = Duration.ofMillis(Long.parseLong(value(args, ++i)));
          case "--drain-timeout" ->
              drainTimeout = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          case "--leader-run-time" ->
              leaderRunTime = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
          default ->
              throw new IllegalArgumentException(
                  "unknown argument "
                      + args[i]
                      + "; usage: ChaosRun"
                      + " --scheduler-jar JAR --controller-jar JAR [--failovers N] [--seed S] [--nodes N] [--outage SECONDS]"
                      + " [--malformed DIR] [--work-dir DIR] [--stuck-after SECONDS] [--job-interval-ms MS]"
                      + " [--drain-timeout SECONDS] [--leader-run-time SECONDS]");
        }
      }
      if (schedulerJar == null || controllerJar == null) {
        throw new IllegalArgumentException("--scheduler-jar and --controller-jar are required");
      }
      if (failovers < 0) {
        throw new IllegalArgumentException("--failovers must not be negative");
      }
      return new Options(
          failovers,
          seed,
          nodes,
          outage,
          malformed,
          schedulerJar,
          controllerJar,
          workDir,
          stuckAfter,
          jobInterval,
          drainTimeout,
          leaderRunTime);
    }

    private static String value(String[] args, int index) {
      if (index >= args.length) {
        throw new IllegalArgumentException(args[index - 1] + " needs a value");
      }
      return args[index];
    }
  }

  /** What the run measured, for the summary line. */
  private static final class Measured {
    int failovers;
    final List<String> failedTakeovers = new ArrayList<>();
    final List<String> crashes = new ArrayList<>();
    Duration maxTakeover = Duration.ZERO;
    Duration outage = Duration.ZERO;
    boolean recovered;
    int malformed;
    int handled;
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    Files.createDirectories(options.workDir());
    log(
        "seed %d, %d failovers, %d nodes, outage %d s, work dir %s",
        options.seed(),
        options.failovers(),
        options.nodes(),
        options.outage().toSeconds(),
        options.workDir().toAbsolutePath());
    LongRun.exitWith("chaos", running -> run(options, running));
  }

  private static int run(Options options, List<AutoCloseable> running) throws Exception {
    Random random = new Random(options.seed());
    ControlPlane controlPlane = ControlPlane.start(KubeApiServerExtension.SERVICE_IDENTITIES);
    running.add(controlPlane);
    ApiClient admin = controlPlane.adminClient();
    LocalCluster.populate(admin, LocalCluster.fleet(options.nodes()));
    for (String namespace : List.of(JOBS_NAMESPACE, MALFORMED_NAMESPACE)) {
      new CoreV1Api(admin)
          .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
          .execute();
    }
    Path kubeconfig =
        controlPlane
            .writeKubeconfig(options.workDir().resolve("kubeconfig"), ControlPlane.ADMIN)
            .toAbsolutePath();
    log("control plane up at %s; export KUBECONFIG=%s", controlPlane.url(), kubeconfig);

    ClusterInvariants invariants = new ClusterInvariants(options.stuckAfter());
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
            Map.of("arranger.kubernetes.readiness-period", "1s"),
            List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            running);
    ReplicaSet schedulers = started.schedulers();
    ReplicaSet controllers = started.controllers();
    log("2 schedulers and 2 controllers ready (logs in %s)", logs);

    ApiClient sampleClient = controlPlane.adminClient();
    sampleClient.setReadTimeout(5_000);
    ClusterSampler sampler =
        new ClusterSampler(sampleClient, watchClient, invariants, Duration.ofMillis(300)).start();
    running.add(sampler);
    JobStream stream =
        new JobStream(
                admin, JOBS_NAMESPACE, "good", options.jobInterval(), invariants, random.nextLong())
            .start();
    running.add(stream);

    Measured measured = new Measured();
    List<MalformedCorpus.Case> corpus = List.of();
    if (options.malformed() != null && Files.isDirectory(options.malformed())) {
      corpus =
          MalformedCorpus.submit(
              admin, MalformedTYJobs.load(options.malformed()), MALFORMED_NAMESPACE);
      measured.malformed = corpus.size();
      log(
          "submitted the malformed corpus: %d objects from %s, %d refused by the API server",
          corpus.size(),
          options.malformed(),
          corpus.stream().filter(MalformedCorpus.Case::refused).count());
    } else {
      log("no malformed corpus at %s: none submitted", options.malformed());
    }

    List<ReplicaSet> services = List.of(schedulers, controllers);
    int outageAt = options.failovers() / 2;
    Instant lastReport = Instant.now();
    if (options.failovers() == 0) {
      outage(controlPlane, services, options.outage(), measured);
    }
    for (int i = 1; i <= options.failovers(); i++) {
      if (i - 1 == outageAt) {
        outage(controlPlane, services, options.outage(), measured);
      }
      Poll.sleep(Duration.ofMillis(1_000 + random.nextInt(7_000)));
      ReplicaSet target = pickReady(services, random, measured);
      ReplicaSet.Kill kill = target.killLeader();
      target.replace(kill.identity());
      Optional<Duration> takeover = target.awaitTakeover(kill, TAKEOVER_TIMEOUT);
      measured.failovers++;
      if (takeover.isPresent()) {
        if (takeover.get().compareTo(measured.maxTakeover) > 0) {
          measured.maxTakeover = takeover.get();
        }
        log(
            "failover %d/%d: killed %s leader %s; %s took over after %.1f s",
            i,
            options.failovers(),
            target.service(),
            kill.identity(),
            target.holder().orElse("?"),
            takeover.get().toMillis() / 1000.0);
      } else {
        measured.failedTakeovers.add(kill.identity());
        log(
            "failover %d/%d: killed %s leader %s; NO takeover within %d s",
            i,
            options.failovers(),
            target.service(),
            kill.identity(),
            TAKEOVER_TIMEOUT.toSeconds());
      }
      if (Duration.between(lastReport, Instant.now()).toSeconds() >= 30) {
        progress(invariants, sampler, stream);
        lastReport = Instant.now();
      }
    }

    stream.close();
    log(
        "stream stopped after %d jobs (%d creates refused%s); waiting up to %d s for every job to finish",
        stream.submitted(),
        stream.refused(),
        stream.refused() == 0 ? "" : ", last: " + stream.lastRefusal(),
        options.drainTimeout().toSeconds());
    Poll.until(
        () -> invariants.jobs().allAccountedFor(), options.drainTimeout(), Duration.ofSeconds(1));
    if (!corpus.isEmpty()) {
      List<MalformedCorpus.Case> handled =
          MalformedCorpus.handled(admin, MALFORMED_NAMESPACE, corpus, Duration.ofSeconds(60));
      measured.handled = handled.size();
      corpus.stream()
          .filter(c -> !handled.contains(c))
          .forEach(c -> log("malformed %s (%s) was not handled", c.file(), c.name()));
    }
    // Let the sampler take a last look at the finished jobs before the books close.
    Poll.sleep(Duration.ofSeconds(1));
    sampler.close();
    invariants.closeBooks();
    progress(invariants, sampler, stream);
    invariants.violations().forEach(v -> log("VIOLATION %s", v));
    restartExited(services, measured);
    log(
        "replicas that crashed by themselves: %d%s",
        measured.crashes.size(), measured.crashes.isEmpty() ? "" : " " + measured.crashes);
    boolean clean =
        invariants.doubleAllocations() == 0
            && invariants.overcommittedNodes() == 0
            && invariants.duplicatePods() == 0
            && invariants.lostJobs() == 0
            && invariants.stuckJobs() == 0
            && measured.failedTakeovers.isEmpty()
            && measured.crashes.isEmpty()
            && measured.recovered
            && measured.handled == measured.malformed
            && invariants.samples() > 0;
    System.out.printf(
        "chaos failovers=%d double-allocations=%d overcommitted-nodes=%d duplicate-pods=%d lost-jobs=%d"
            + " stuck-jobs=%d max-takeover-s=%.1f outage-s=%d recovered=%s malformed=%d handled=%d%n",
        measured.failovers,
        invariants.doubleAllocations(),
        invariants.overcommittedNodes(),
        invariants.duplicatePods(),
        invariants.lostJobs(),
        invariants.stuckJobs(),
        measured.maxTakeover.toMillis() / 1000.0,
        Math.round(measured.outage.toMillis() / 1000.0),
        measured.recovered ? "yes" : "no",
        measured.malformed,
        measured.handled);
    return clean ? 0 : 1;
  }

  /**
   * A service whose replicas are all ready (so that its leader has a standby), chosen at random.
   */
  private static ReplicaSet pickReady(List<ReplicaSet> services, Random random, Measured measured) {
    List<ReplicaSet> ready = new ArrayList<>();
    boolean any =
        Poll.until(
            () -> {
              restartExited(services, measured);
              ready.clear();
              services.stream()
                  .filter(s -> s.allReady() && s.leader().isPresent())
                  .forEach(ready::add);
              return !ready.isEmpty();
            },
            ShortLeaseServices.READY_TIMEOUT,
            Duration.ofMillis(500));
    if (!any) {
      throw new IllegalStateException(
          "no service had all replicas ready and a leader within "
              + ShortLeaseServices.READY_TIMEOUT.toMinutes()
              + " min; see the logs in the work dir");
    }
    return ready.get(random.nextInt(ready.size()));
  }

  /**
   * A replica that died by itself is started again (as its Deployment would) and counted as a
   * crash.
   */
  private static void restartExited(List<ReplicaSet> services, Measured measured) {
    for (ReplicaSet service : services) {
      for (String crash : service.restartExited()) {
        measured.crashes.add(crash);
        log("CRASH %s; started again", crash);
      }
    }
  }

  /**
   * Freezes the API server for the outage time (a deliberate timed pause), watching every replica's
   * readiness drop, then thaws it and waits for every replica to be ready again with a leader each.
   */
  private static void outage(
      ControlPlane controlPlane, List<ReplicaSet> services, Duration length, Measured measured) {
    boolean readyBefore =
        Poll.until(
            () -> {
              restartExited(services, measured);
              return services.stream().allMatch(s -> s.allReady() && s.leader().isPresent());
            },
            ShortLeaseServices.READY_TIMEOUT,
            Duration.ofMillis(500));
    if (!readyBefore) {
      log(
          "not every replica was ready with a leader each before the freeze (waited %d min): %s",
          ShortLeaseServices.READY_TIMEOUT.toMinutes(),
          services.stream()
              .flatMap(s -> s.replicas().stream())
              .map(r -> r.name() + (r.isReady() ? " ready" : " NOT ready"))
              .toList());
    }
    List<ServiceProcess> replicas = services.stream().flatMap(s -> s.replicas().stream()).toList();
    log("freezing the API server (SIGSTOP) for %d s", length.toSeconds());
    Instant frozenAt = Instant.now();
    controlPlane.freezeApiServer();
    Map<String, Duration> droppedAfter = new LinkedHashMap<>();
    Instant until = frozenAt.plus(length);
    while (Instant.now().isBefore(until)) {
      for (ServiceProcess replica : replicas) {
        if (!droppedAfter.containsKey(replica.name()) && !replica.isReady()) {
          droppedAfter.put(replica.name(), Duration.between(frozenAt, Instant.now()));
        }
      }
      Poll.sleep(Duration.ofMillis(250));
    }
    // The outage lasts until SIGCONT; the API server's own return to /readyz is part of the
    // recovery.
    measured.outage = Duration.between(frozenAt, Instant.now());
    controlPlane.thawApiServer();
    for (ServiceProcess replica : replicas) {
      Duration dropped = droppedAfter.get(replica.name());
      log(
          "  readiness of %s: %s",
          replica.name(),
          dropped == null
              ? "never dropped during the outage"
              : String.format(
                  "dropped after %.1f s%s",
                  dropped.toMillis() / 1000.0,
                  dropped.compareTo(READINESS_DROP_BOUND) > 0
                      ? " (later than " + READINESS_DROP_BOUND.toSeconds() + " s)"
                      : ""));
    }
    Instant thawedAt = Instant.now();
    measured.recovered =
        Poll.until(
            () -> {
              restartExited(services, measured);
              return services.stream().allMatch(s -> s.allReady() && s.leader().isPresent());
            },
            ShortLeaseServices.READY_TIMEOUT,
            Duration.ofMillis(500));
    log(
        "API server resumed after %.1f s frozen; services %s",
        measured.outage.toMillis() / 1000.0,
        measured.recovered
            ? String.format(
                "ready again with a leader each %.1f s later",
                Duration.between(thawedAt, Instant.now()).toMillis() / 1000.0)
            : "NOT all ready again within "
                + ShortLeaseServices.READY_TIMEOUT.toMinutes()
                + " min: "
                + services.stream()
                    .flatMap(s -> s.replicas().stream())
                    .map(r -> r.name() + (r.isReady() ? " ready" : " NOT ready"))
                    .toList());
  }

  private static void progress(
      ClusterInvariants invariants, ClusterSampler sampler, JobStream stream) {
    log(
        "samples %d (%d failed%s), jobs submitted %d, succeeded %d; double-allocations %d, overcommitted-nodes %d,"
            + " duplicate-pods %d, lost %d, stuck %d",
        invariants.samples(),
        sampler.failedSamples(),
        sampler.failedSamples() == 0 ? "" : ", last: " + sampler.lastFailure(),
        stream.submitted(),
        invariants.jobs().succeededJobs(),
        invariants.doubleAllocations(),
        invariants.overcommittedNodes(),
        invariants.duplicatePods(),
        invariants.lostJobs(),
        invariants.stuckJobs());
  }

  private static void log(String format, Object... args) {
    System.out.printf(
        "[chaos %s] %s%n", Instant.now().toString().substring(11, 19), String.format(format, args));
  }
}
