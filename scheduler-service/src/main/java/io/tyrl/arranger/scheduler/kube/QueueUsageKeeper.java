package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import io.tyrl.arranger.scheduler.framework.UsageLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each queue's past usage across cycles and failovers: before a cycle it brings every queue's
 * usage up to date with what the snapshot shows held ({@link UsageLedger}) and hands it to the
 * cycle; after, it writes it to {@code Queue.status.usage}.
 *
 * <p><b>Where history comes from.</b> A queue the keeper does not know yet — every queue on a
 * replica's first cycle as leader — is seeded from its stored status: the standby that takes over
 * goes on from the last usage written, counting the time since as held at what is held now (the
 * pods ran on through the failover). Losing the lease forgets everything, so a replica that leads
 * again reads the status again rather than trusting what it knew before another leader wrote.
 *
 * <p><b>How often it is written.</b> A queue's usage is written at most once per {@code
 * writeInterval} (30 s by default), and only when some resource's total moved by more than {@value
 * #WRITE_THRESHOLD_PERCENT} % since the last write, or its namespaces changed, or a reset is to be
 * recorded. That bounds the load on the API server to one write per queue per interval however
 * short the cycles; keeps an idle cluster write-free (decay alone moves a total by 1 % only every
 * ~21 minutes at a 24 h half-life); and loses at most one interval of history on a failover, which
 * the next leader counts anyway at the allocation it finds.
 *
 * <p><b>Fenced.</b> Each write goes through the {@link StatusPatcher}, which sends nothing unless
 * this replica may write as leader. The patch touches only {@code status.usage}, which nothing else
 * writes, so it carries no resourceVersion: it cannot undo another writer's fields, and it does not
 * conflict with the Queue status writer's patches of the same cycle.
 *
 * <p><b>Reset.</b> A Queue annotated {@value QueueStatusFields#RESET_USAGE_ANNOTATION} with a value
 * its stored usage does not record as its last reset starts from nothing, once.
 */
public final class QueueUsageKeeper {

  private static final Logger log = LoggerFactory.getLogger(QueueUsageKeeper.class);

  static final double WRITE_THRESHOLD_PERCENT = 1.0;

  /** What was last written for a queue: when, and the totals compared against next time. */
  private record Written(
      Instant at, Map<String, Double> totals, Set<String> namespaces, String reset) {}

  private final StatusPatcher patcher;
  private final ExecutorService writers;
  private final Duration writeInterval;
  private final UsageLedger ledger = new UsageLedger();
  private final Map<String, String> resets = new HashMap<>();
  private final Map<String, Written> written = new ConcurrentHashMap<>();
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<String> unreadable = ConcurrentHashMap.newKeySet();
  private Map<String, Map<String, Double>> clusterShares = Map.of();
  private Map<String, QueueUsage> usages = Map.of();

  public QueueUsageKeeper(StatusPatcher patcher, ExecutorService writers, Duration writeInterval) {
    this.patcher = patcher;
    this.writers = writers;
    this.writeInterval = Objects.requireNonNull(writeInterval, "writeInterval");
  }

  /**
   * The snapshot with every queue's usage brought up to {@code now}.
   *
   * @param observed every cached Queue by name, with its stored status and reset annotation
   */
  public synchronized Snapshot withUsage(
      Snapshot snapshot,
      Map<String, ClusterInformers.ObservedQueue> observed,
      Instant now,
      FairnessConfiguration fairness) {
    for (ClusterInformers.ObservedQueue queue : observed.values()) {
      if (!ledger.knows(queue.name())) {
        QueueUsageStatus.Stored stored = storedUsage(queue);
        ledger.seed(queue.name(), stored.usage());
        resets.put(queue.name(), stored.reset());
      }
      String reset = queue.usageReset();
      if (reset != null && !reset.equals(resets.get(queue.name()))) {
        log.info("usage history of Queue {} reset (annotation value {})", queue.name(), reset);
        ledger.reset(queue.name());
        resets.put(queue.name(), reset);
      }
    }
    usages = ledger.advance(snapshot, now, fairness);
    Map<String, Long> capacity = new TreeMap<>();
    for (NodeInfo node : snapshot.nodes()) {
      node.allocatable().quantities().forEach((name, v) -> capacity.merge(name, v, Long::sum));
    }
    Map<String, Map<String, Double>> shares = new HashMap<>();
    usages.forEach(
        (queue, usage) -> {
          Map<String, Double> byResource = new TreeMap<>();
          for (String resource : usage.queue().total().keySet()) {
            byResource.put(
                resource,
                usage
                    .queue()
                    .clusterShare(
                        resource,
                        capacity.getOrDefault(resource, 0L),
                        fairness.halfLife(),
                        fairness.window()));
          }
          shares.put(queue, byResource);
        });
    clusterShares = Map.copyOf(shares);
    return snapshot.withUsage(usages);
  }

  private QueueUsageStatus.Stored storedUsage(ClusterInformers.ObservedQueue queue) {
    try {
      unreadable.remove(queue.name());
      return QueueUsageStatus.read(queue.status());
    } catch (QueueUsageStatus.MalformedUsageException e) {
      if (unreadable.add(queue.name())) {
        log.warn(
            "Queue {}: stored usage cannot be read, its history starts again: {}",
            queue.name(),
            e.getMessage());
      }
      return QueueUsageStatus.Stored.NONE;
    }
  }

  /**
   * Per queue and resource, the share of the cluster held on (decayed) average, as of the last
   * cycle.
   */
  public synchronized Map<String, Map<String, Double>> clusterShares() {
    return clusterShares;
  }

  /** Per queue, its usage as of the last cycle. */
  public synchronized Map<String, QueueUsage> usages() {
    return usages;
  }

  /**
   * Forgets every queue's history: this replica no longer leads; it reads the status when it does.
   */
  public synchronized void forget() {
    ledger.clear();
    resets.clear();
    written.clear();
    usages = Map.of();
    clusterShares = Map.of();
  }

  /**
   * Writes the usage of the queues that are due (see the class comment). Writes run on {@code
   * writers}; the cycle does not wait for them, and a queue whose write is in flight is not written
   * again meanwhile.
   *
   * @return how many writes were handed over
   */
  public synchronized int write(Map<String, ClusterInformers.ObservedQueue> observed, Instant now) {
    int sent = 0;
    for (Map.Entry<String, QueueUsage> entry : usages.entrySet()) {
      String name = entry.getKey();
      ClusterInformers.ObservedQueue queue = observed.get(name);
      if (queue == null || inFlight.contains(name)) {
        continue;
      }
      QueueUsage usage = entry.getValue();
      Written next =
          new Written(now, usage.queue().total(), usage.namespaces().keySet(), resets.get(name));
      if (!due(written.get(name), next)) {
        continue;
      }
      JsonObject desired =
          QueueUsageStatus.toJson(
              usage, clusterShares.getOrDefault(name, Map.of()), resets.get(name));
      JsonElement stored =
          queue.status() == null ? null : queue.status().get(QueueStatusFields.USAGE);
      JsonObject status = new JsonObject();
      status.add(QueueStatusFields.USAGE, QueueUsageStatus.mergePatch(stored, desired));
      JsonObject patch = new JsonObject();
      patch.add("status", status);
      inFlight.add(name);
      writers.submit(() -> send(name, patch.toString(), next));
      sent++;
    }
    return sent;
  }

  /**
   * Due when never written and there is something to say; else when the interval has passed and
   * something moved enough.
   */
  private boolean due(Written last, Written next) {
    if (last == null) {
      return !next.totals().isEmpty() || next.reset() != null;
    }
    if (Duration.between(last.at(), next.at()).compareTo(writeInterval) < 0) {
      return false;
    }
    if (!Objects.equals(last.reset(), next.reset())
        || !last.namespaces().equals(next.namespaces())
        || !last.totals().keySet().equals(next.totals().keySet())) {
      return true;
    }
    for (Map.Entry<String, Double> total : next.totals().entrySet()) {
      double before = last.totals().get(total.getKey());
      if (Math.abs(total.getValue() - before) > before * WRITE_THRESHOLD_PERCENT / 100) {
        return true;
      }
    }
    return false;
  }

  private void send(String name, String patch, Written next) {
    StatusPatcher.Target target =
        StatusPatcher.Target.clusterScoped(
            ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, name);
    try {
      StatusPatcher.Result result = patcher.patch(target, patch);
      if (result instanceof StatusPatcher.Result.Patched) {
        written.put(name, next);
        writes.merge("written", 1, Integer::sum);
      } else if (result instanceof StatusPatcher.Result.Fenced) {
        writes.merge("fenced", 1, Integer::sum);
      } else {
        writes.merge("failed", 1, Integer::sum);
      }
    } catch (RuntimeException e) {
      writes.merge("failed", 1, Integer::sum);
      log.warn(
          "usage write of Queue {} failed; a later cycle writes it again: {}",
          name,
          e.getMessage());
    } finally {
      inFlight.remove(name);
    }
  }

  private final Map<String, Integer> writes = new ConcurrentHashMap<>();

  /** Usage writes answered so far by result (written, fenced, failed). */
  public Map<String, Integer> writeResults() {
    return Map.copyOf(writes);
  }
}
