package io.tyrl.arranger.testing.chaos;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.tyrl.arranger.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replicas of one Arranger service, each a process from the service's jar with its own identity,
 * all standing for one Lease — a Deployment in miniature. A replica that is killed can be started
 * again in its slot under a new identity, as a Deployment would create a new pod (a new name).
 */
public final class ReplicaSet implements AutoCloseable {

  /** A leader killed without giving its lease up, and when. */
  public record Kill(String service, String identity, Instant at) {}

  private final String service;
  private final Path jar;
  private final Path logDir;
  private final Map<String, String> properties;
  private final List<String> jvmOptions;
  private final CoordinationV1Api coordination;
  private final String leaseNamespace;
  private final String leaseName;
  private final Map<String, ServiceProcess> bySlot = new LinkedHashMap<>();
  private final Map<String, Integer> generations = new HashMap<>();
  private final java.util.Set<String> killed = new java.util.HashSet<>();

  /**
   * @param properties Spring properties for every replica; the identity is added per replica
   * @param client reads the Lease
   */
  public ReplicaSet(
      String service,
      Path jar,
      Path logDir,
      Map<String, String> properties,
      List<String> jvmOptions,
      ApiClient client,
      String leaseNamespace,
      String leaseName) {
    this.service = service;
    this.jar = jar;
    this.logDir = logDir;
    this.properties = Map.copyOf(properties);
    this.jvmOptions = List.copyOf(jvmOptions);
    this.coordination = new CoordinationV1Api(client);
    this.leaseNamespace = leaseNamespace;
    this.leaseName = leaseName;
  }

  public String service() {
    return service;
  }

  /** Starts replicas in slots a, b, … */
  public synchronized ReplicaSet start(int replicas) {
    for (int i = 0; i < replicas; i++) {
      startSlot(String.valueOf((char) ('a' + i)));
    }
    return this;
  }

  private ServiceProcess startSlot(String slot) {
    int generation = generations.merge(slot, 1, Integer::sum);
    String identity = service + "-" + slot + "-" + generation;
    Map<String, String> withIdentity = new LinkedHashMap<>(properties);
    withIdentity.put("arranger.leader-election.identity", identity);
    ServiceProcess process = ServiceProcess.start(identity, jar, logDir, withIdentity, jvmOptions);
    bySlot.put(slot, process);
    return process;
  }

  public synchronized List<ServiceProcess> replicas() {
    return new ArrayList<>(bySlot.values());
  }

  public void awaitAllReady(Duration timeout) {
    replicas().forEach(replica -> replica.awaitReady(timeout));
  }

  public boolean allReady() {
    return replicas().stream().allMatch(r -> r.isAlive() && r.isReady());
  }

  /** The Lease's holder, empty when nobody holds it (or it cannot be read). */
  public Optional<String> holder() {
    try {
      V1Lease lease = coordination.readNamespacedLease(leaseName, leaseNamespace).execute();
      String holder = lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
      return holder == null || holder.isBlank() ? Optional.empty() : Optional.of(holder);
    } catch (ApiException e) {
      return Optional.empty();
    }
  }

  /** The running replica that holds the lease, if any. */
  public synchronized Optional<ServiceProcess> leader() {
    Optional<String> holder = holder();
    return bySlot.values().stream()
        .filter(p -> p.isAlive() && holder.isPresent() && p.name().equals(holder.get()))
        .findFirst();
  }

  /** SIGKILLs the leader: it gives nothing up. */
  public synchronized Kill killLeader() {
    ServiceProcess leader =
        leader()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no live "
                            + service
                            + " replica holds lease "
                            + leaseNamespace
                            + "/"
                            + leaseName
                            + " (holder: "
                            + holder().orElse("none")
                            + ")"));
    Instant at = Instant.now();
    killed.add(leader.name());
    leader.kill();
    return new Kill(service, leader.name(), at);
  }

  /** Starts a replica again, under a new identity, in the slot of one that was killed. */
  public synchronized ServiceProcess replace(String identity) {
    String slot =
        bySlot.entrySet().stream()
            .filter(e -> e.getValue().name().equals(identity))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow(
                () -> new IllegalArgumentException("no replica " + identity + " in " + service));
    ServiceProcess old = bySlot.get(slot);
    if (old.isAlive()) {
      throw new IllegalStateException(identity + " still runs (pid " + old.pid() + ")");
    }
    return startSlot(slot);
  }

  /**
   * Starts again, as a Deployment would, every replica that exited by itself (not killed here).
   *
   * @return one line per replica restarted: its name and exit code
   */
  public synchronized List<String> restartExited() {
    List<String> restarted = new ArrayList<>();
    for (Map.Entry<String, ServiceProcess> slot : new ArrayList<>(bySlot.entrySet())) {
      ServiceProcess process = slot.getValue();
      if (!process.isAlive() && !killed.contains(process.name())) {
        restarted.add(
            process.name()
                + " exited by itself with code "
                + process.exitValue()
                + " (log "
                + process.log()
                + ")");
        startSlot(slot.getKey());
      }
    }
    return restarted;
  }

  /**
   * Waits until another live replica holds the lease after a kill.
   *
   * @return how long after the kill the lease changed hands, or empty if not within the timeout
   */
  public Optional<Duration> awaitTakeover(Kill kill, Duration timeout) {
    boolean taken =
        Poll.until(
            () -> leader().map(l -> !l.name().equals(kill.identity())).orElse(false),
            timeout,
            Duration.ofMillis(100));
    return taken ? Optional.of(Duration.between(kill.at(), Instant.now())) : Optional.empty();
  }

  @Override
  public synchronized void close() {
    List<RuntimeException> failures = new ArrayList<>();
    for (ServiceProcess process : bySlot.values()) {
      try {
        process.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
