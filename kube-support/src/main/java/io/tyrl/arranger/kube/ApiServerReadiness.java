package io.tyrl.arranger.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the service's readiness true only while the API server answers and every {@link
 * ReadinessCheck} passes: a replica cut off from the API server drops out of its Service, and comes
 * back by itself once the API server answers again.
 */
public final class ApiServerReadiness
    implements SmartLifecycle, ApplicationListener<AvailabilityChangeEvent<?>> {

  private static final Logger log = LoggerFactory.getLogger(ApiServerReadiness.class);

  private final VersionApi versionApi;
  private final List<ReadinessCheck> checks;
  private final ApplicationEventPublisher events;
  private final Duration period;
  private ScheduledExecutorService executor;
  private final ApplicationAvailability availability;
  private volatile String lastProblem = "not checked yet";

  public ApiServerReadiness(
      ApiClient client,
      List<ReadinessCheck> checks,
      ApplicationEventPublisher events,
      ApplicationAvailability availability,
      Duration period) {
    this.availability = availability;
    this.versionApi = new VersionApi(client);
    this.checks = List.copyOf(checks);
    this.events = events;
    this.period = period;
  }

  /** Why the service is not ready, or empty when it is. */
  public String lastProblem() {
    return lastProblem;
  }

  void check() {
    String problem = problem();
    ReadinessState next =
        problem.isEmpty() ? ReadinessState.ACCEPTING_TRAFFIC : ReadinessState.REFUSING_TRAFFIC;
    // Compared with the application's state, not only our last verdict: Spring Boot itself
    // publishes
    // ACCEPTING_TRAFFIC once the context is ready, which must not stand while a check fails.
    if (next != availability.getReadinessState()) {
      if (problem.isEmpty()) {
        log.info(
            "ready: the API server answers and {} passed",
            checks.stream().map(ReadinessCheck::name).toList());
      } else {
        log.warn("not ready: {}", problem);
      }
      AvailabilityChangeEvent.publish(events, this, next);
    }
    lastProblem = problem;
  }

  private String problem() {
    try {
      versionApi.getCode().execute();
    } catch (ApiException e) {
      return "API server unreachable: "
          + (e.getCode() == 0 ? String.valueOf(e.getCause()) : "HTTP " + e.getCode());
    } catch (RuntimeException e) {
      return "API server unreachable: " + e;
    }
    for (ReadinessCheck check : checks) {
      if (!check.ready()) {
        return check.name() + " not yet";
      }
    }
    return "";
  }

  /**
   * Spring Boot declares the application ready once its context has started, whatever the checks
   * say; a service whose informers have not synced yet must not stay ready until the next period.
   */
  @Override
  public synchronized void onApplicationEvent(AvailabilityChangeEvent<?> event) {
    if (event.getSource() != this
        && event.getState() == ReadinessState.ACCEPTING_TRAFFIC
        && executor != null) {
      executor.execute(
          () -> {
            try {
              check();
            } catch (RuntimeException e) {
              log.warn("readiness check failed", e);
            }
          });
    }
  }

  @Override
  public synchronized void start() {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "api-server-readiness");
              thread.setDaemon(true);
              return thread;
            });
    executor.scheduleWithFixedDelay(
        () -> {
          try {
            check();
          } catch (RuntimeException e) {
            log.warn("readiness check failed", e);
          }
        },
        0,
        period.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  @Override
  public boolean isRunning() {
    return executor != null;
  }
}
