package io.tyrl.arranger.kube.leader;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs client-java's {@link LeaderElector} on a {@link LeaseLock} for as long as the service runs.
 * A replica that loses the lease stops its leader work at once and stands for election again; on a
 * graceful stop its listeners drain their writes in flight, then the elector is closed, which gives
 * the lease up so that a standby takes over without waiting for it to expire. With election
 * disabled, the single replica leads from start.
 *
 * <p>As a {@link LeadershipFence} it lets a write through only while this replica leads and its
 * last renewal of the lease started less than the fence window ago: {@code renewDeadline}, after
 * which the elector itself gives up, or less when a request may take so long that a write sent
 * inside the renew deadline could still be in flight once {@code leaseDuration} has passed and
 * another replica may lead ({@code leaseDuration − requestTimeout}).
 */
public final class LeaderElection implements SmartLifecycle, LeadershipFence {

  private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

  private final LeaderElectionProperties properties;
  private final ApiClient client;
  private final Supplier<List<LeadershipListener>> listenerSource;
  private volatile List<LeadershipListener> listeners = List.of();
  private final String identity;
  private final AtomicBoolean leading = new AtomicBoolean();
  private volatile boolean running;
  private volatile LeaderElector elector;
  private volatile RenewalTrackingLock lock;
  private Thread thread;

  private final Duration fenceWindow;

  /**
   * @param requestTimeout the longest a request to the API server may take (the client's call
   *     timeout): a write sent at the end of the fence window has ended by the time the lease can
   *     pass to another replica
   */
  public LeaderElection(
      LeaderElectionProperties properties,
      ApiClient client,
      List<LeadershipListener> listeners,
      MeterRegistry meterRegistry,
      String service,
      Duration requestTimeout) {
    this(properties, client, () -> listeners, meterRegistry, service, requestTimeout);
  }

  /**
   * @param listeners looked up when the election starts, not before: the leader's work writes
   *     through this very election's fence, so it is built after it
   */
  public LeaderElection(
      LeaderElectionProperties properties,
      ApiClient client,
      Supplier<List<LeadershipListener>> listeners,
      MeterRegistry meterRegistry,
      String service,
      Duration requestTimeout) {
    this.properties = properties;
    this.fenceWindow = fenceWindow(properties, requestTimeout);
    this.client = client;
    this.listenerSource = listeners;
    this.identity = properties.effectiveIdentity();
    Gauge.builder("arranger_leader", leading, l -> l.get() ? 1 : 0)
        .description("1 while this replica holds the leader lease")
        .tag("service", service)
        .register(meterRegistry);
  }

  public boolean isLeader() {
    return leading.get();
  }

  @Override
  public boolean mayWrite() {
    if (!leading.get()) {
      return false;
    }
    if (!properties.enabled()) {
      return true;
    }
    RenewalTrackingLock current = lock;
    return current != null && current.renewedWithin(fenceWindow);
  }

  static Duration fenceWindow(LeaderElectionProperties properties, Duration requestTimeout) {
    Duration window = properties.leaseDuration().minus(requestTimeout);
    if (properties.enabled() && window.compareTo(properties.retryPeriod()) <= 0) {
      throw new IllegalArgumentException(
          "arranger.leader-election.lease-duration ("
              + properties.leaseDuration()
              + ") must exceed arranger.kubernetes.request-timeout ("
              + requestTimeout
              + ") by more than retry-period ("
              + properties.retryPeriod()
              + "), or a leader could never write between two renewals");
    }
    return window.compareTo(properties.renewDeadline()) < 0 ? window : properties.renewDeadline();
  }

  public String identity() {
    return identity;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    running = true;
    listeners = List.copyOf(listenerSource.get());
    if (!properties.enabled()) {
      log.info("leader election disabled: {} leads", identity);
      becomeLeader();
      return;
    }
    thread = new Thread(this::campaign, "leader-election");
    thread.setDaemon(true);
    thread.start();
  }

  private void campaign() {
    while (running) {
      RenewalTrackingLock tracked =
          new RenewalTrackingLock(
              new LeaseLock(properties.leaseNamespace(), properties.leaseName(), identity, client),
              System::nanoTime);
      lock = tracked;
      LeaderElectionConfig config =
          new LeaderElectionConfig(
              tracked,
              properties.leaseDuration(),
              properties.renewDeadline(),
              properties.retryPeriod());
      try (LeaderElector candidate =
          new LeaderElector(
              config,
              error ->
                  log.warn(
                      "leader election for lease {}/{}: {}",
                      properties.leaseNamespace(),
                      properties.leaseName(),
                      error.toString()))) {
        elector = candidate;
        log.info(
            "{} stands for lease {}/{}",
            identity,
            properties.leaseNamespace(),
            properties.leaseName());
        candidate.run(this::becomeLeader, this::stepDown);
      } catch (RuntimeException e) {
        log.warn(
            "leader election for lease {}/{} failed; standing again after {}",
            properties.leaseNamespace(),
            properties.leaseName(),
            properties.retryPeriod(),
            e);
      } finally {
        stepDown();
      }
      pause(properties.retryPeriod());
    }
  }

  private void becomeLeader() {
    if (leading.compareAndSet(false, true)) {
      log.info("{} is now the leader", identity);
      listeners.forEach(LeadershipListener::startedLeading);
    }
  }

  private void stepDown() {
    RenewalTrackingLock current = lock;
    if (current != null) {
      current.invalidate();
    }
    if (leading.compareAndSet(true, false)) {
      log.info("{} is no longer the leader", identity);
      listeners.forEach(LeadershipListener::stoppedLeading);
    }
  }

  @Override
  public synchronized void stop() {
    if (!running) {
      return;
    }
    running = false;
    if (leading.get()) {
      // Still the leader: writes in flight finish under the lease before it is given up.
      listeners.forEach(listener -> listener.drain(properties.drainTimeout()));
    }
    stepDown();
    LeaderElector current = elector;
    if (current != null) {
      // Closing gives the lease up (holder emptied), so a standby need not wait for it to expire.
      current.close();
    }
    if (thread != null) {
      thread.interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
