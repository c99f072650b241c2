package io.tyrl.arranger.kube.events;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.util.PatchUtils;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import io.tyrl.arranger.kube.leader.LeadershipListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;

/**
 * The one way both services record core/v1 Events: {@link #record} never blocks and never throws,
 * so a scheduling cycle or a reconcile is never held up by an Event.
 *
 * <p>{@code record} correlates the occurrence at once ({@link EventCorrelator}: client-go's
 * counting, aggregation and spam filter) and puts the resulting write on a bounded queue; a write
 * that finds the queue full is dropped and counted. One writer thread sends the writes in order — a
 * create, or a JSON merge patch of {@code count}, {@code lastTimestamp} and {@code message} (a
 * patch whose Event has gone becomes a create with the same name and count). Before every attempt
 * it asks the {@link LeadershipFence}: a replica that may have lost its lease sends nothing.
 * Transport errors, 429 and 5xx are retried a bounded number of times with backoff; other refusals
 * drop the write.
 *
 * <p>Metrics: {@code arranger_events_total{result}} — {@code created}, {@code patched} (counted on
 * an existing Event), {@code skipped} (spam filter), {@code dropped} (queue full), {@code fenced},
 * {@code failed} — and {@code arranger_events_queued}.
 *
 * <p>As a {@link LeadershipListener} it drains on a graceful stop: queued writes get until the
 * drain timeout to go out before the lease is given up; it drains after the leader's other work
 * ({@link Ordered#LOWEST_PRECEDENCE}), whose last Events it then carries.
 */
public final class EventRecorder implements LeadershipListener, Ordered, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

  private final CoreV1Api core;
  private final ApiClient client;
  private final String component;
  private final String instance;
  private final LeadershipFence fence;
  private final EventRecorderProperties settings;
  private final Clock clock;
  private final EventCorrelator correlator;
  private final Backoff backoff;
  private final BlockingQueue<RecordedEvent> queue;
  private final AtomicInteger unfinished = new AtomicInteger();
  private final AtomicLong lastNameNanos = new AtomicLong();
  private final Counter created;
  private final Counter patched;
  private final Counter skipped;
  private final Counter dropped;
  private final Counter fenced;
  private final Counter failed;
  private final Thread writer;
  private volatile boolean closed;

  /**
   * @param component {@code source.component} and {@code reportingComponent} of every Event ({@code
   *     arranger-scheduler}, {@code arranger-controller})
   * @param instance {@code reportingInstance}: this replica's identity
   */
  public EventRecorder(
      ApiClient client,
      String component,
      String instance,
      LeadershipFence fence,
      EventRecorderProperties settings,
      MeterRegistry registry,
      Clock clock) {
    this.client = client;
    this.core = new CoreV1Api(client);
    this.component = Objects.requireNonNull(component, "component");
    this.instance = instance;
    this.fence = Objects.requireNonNull(fence, "fence");
    this.settings = settings;
    this.clock = clock;
    this.correlator = new EventCorrelator(settings, this::newName);
    this.backoff =
        new Backoff(settings.retryInitialDelay(), settings.retryMaxDelay(), settings.maxAttempts());
    this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
    this.created = result(registry, "created");
    this.patched = result(registry, "patched");
    this.skipped = result(registry, "skipped");
    this.dropped = result(registry, "dropped");
    this.fenced = result(registry, "fenced");
    this.failed = result(registry, "failed");
    Gauge.builder("arranger.events.queued", queue, BlockingQueue::size)
        .description("Event writes waiting to be sent")
        .register(registry);
    this.writer = new Thread(this::writeLoop, "event-recorder-" + component);
    writer.setDaemon(true);
    writer.start();
  }

  /** A recorder with the default settings and metrics of its own (tests, tools). */
  public static EventRecorder standalone(
      ApiClient client, String component, String instance, LeadershipFence fence, Clock clock) {
    return new EventRecorder(
        client,
        component,
        instance,
        fence,
        EventRecorderProperties.defaults(),
        new SimpleMeterRegistry(),
        clock);
  }

  private static Counter result(MeterRegistry registry, String result) {
    return Counter.builder("arranger.events")
        .tag("result", result)
        .description("Event occurrences by what became of them")
        .register(registry);
  }

  /**
   * Records one occurrence: correlated now, written later by the writer thread. Never blocks, never
   * throws; a null or blank message is recorded as the reason.
   */
  public void record(InvolvedObject object, EventType type, String reason, String message) {
    try {
      String text = message == null || message.isBlank() ? reason : message;
      if (text.length() > settings.maxMessageLength()) {
        text = text.substring(0, settings.maxMessageLength() - 3) + "...";
      }
      EventCorrelator.Outcome outcome =
          correlator.correlate(object, type, reason, text, clock.instant());
      if (outcome instanceof EventCorrelator.Outcome.Write write) {
        if (closed) {
          dropped.increment();
          return;
        }
        unfinished.incrementAndGet();
        if (!queue.offer(write.event())) {
          unfinished.decrementAndGet();
          dropped.increment();
          log.debug(
              "event {} on {} dropped: {} writes are queued already",
              reason,
              object,
              settings.queueCapacity());
        }
      } else {
        skipped.increment();
      }
    } catch (RuntimeException e) {
      log.warn("event {} on {} not recorded", reason, object, e);
    }
  }

  /**
   * Waits until every queued write has been sent or given up, at most {@code timeout}; true if so.
   */
  public boolean awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (unfinished.get() > 0) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  @Override
  public void startedLeading() {
    // Nothing to start: the writer runs all along and the fence decides.
  }

  /**
   * What is queued can no longer be written by this replica: dropped now rather than fenced one by
   * one.
   */
  @Override
  public void stoppedLeading() {
    List<RecordedEvent> abandoned = new ArrayList<>();
    queue.drainTo(abandoned);
    if (!abandoned.isEmpty()) {
      unfinished.addAndGet(-abandoned.size());
      fenced.increment(abandoned.size());
      log.debug("{} queued events abandoned: this replica no longer leads", abandoned.size());
    }
  }

  @Override
  public void drain(Duration timeout) {
    if (!awaitIdle(timeout)) {
      log.warn(
          "{} events still queued after {}; the lease is given up anyway",
          unfinished.get(),
          timeout);
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void close() {
    closed = true;
    writer.interrupt();
  }

  /**
   * {@code <object>.<hex nanoseconds>}, as client-go names Events, strictly increasing so that two
   * never clash.
   */
  private String newName(InvolvedObject object) {
    Instant now = clock.instant();
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    long unique = lastNameNanos.updateAndGet(last -> Math.max(last + 1, nanos));
    String prefix = object.name().length() > 236 ? object.name().substring(0, 236) : object.name();
    return prefix + "." + Long.toHexString(unique);
  }

  private void writeLoop() {
    while (!closed) {
      RecordedEvent event;
      try {
        event = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        if (closed) {
          return;
        }
        continue;
      }
      if (event == null) {
        continue;
      }
      try {
        write(event);
      } catch (RuntimeException e) {
        failed.increment();
        log.warn("event {} on {} not written", event.reason(), event.object(), e);
      } finally {
        unfinished.decrementAndGet();
      }
    }
  }

  /** Sends one write, retrying what may pass later; never throws for an API refusal. */
  void write(RecordedEvent event) {
    boolean update = event.isUpdate();
    for (int attempt = 1; ; attempt++) {
      if (!fence.mayWrite()) {
        fenced.increment();
        log.debug(
            "event {} on {} not written: this replica may no longer write as leader",
            event.reason(),
            event.object());
        return;
      }
      try {
        if (update) {
          try {
            patch(event);
            patched.increment();
            return;
          } catch (ApiException e) {
            if (e.getCode() != 404) {
              throw e;
            }
            // The Event expired or was never written: this occurrence starts it again, with its
            // count.
            update = false;
          }
        }
        create(event);
        created.increment();
        return;
      } catch (ApiException e) {
        int code = e.getCode();
        if (code == 409 && !update) {
          // Already exists: an earlier attempt went through although its answer was lost.
          created.increment();
          return;
        }
        boolean retryable = code == 0 || code == 429 || code >= 500;
        if (!retryable || attempt >= backoff.maxAttempts()) {
          failed.increment();
          log.debug(
              "event {} on {} not written after {} attempts (HTTP {}): {}",
              event.reason(),
              event.object(),
              attempt,
              code,
              code == 0 ? String.valueOf(e.getCause()) : e.getResponseBody());
          return;
        }
        try {
          backoff.pause(attempt);
        } catch (InterruptedException interrupted) {
          failed.increment();
          return;
        }
      }
    }
  }

  private void create(RecordedEvent event) throws ApiException {
    CoreV1Event body =
        new CoreV1Event()
            .metadata(new V1ObjectMeta().name(event.name()).namespace(event.namespace()))
            .involvedObject(
                new V1ObjectReference()
                    .apiVersion(event.object().apiVersion())
                    .kind(event.object().kind())
                    .namespace(event.object().namespace())
                    .name(event.object().name())
                    .uid(event.object().uid()))
            .type(event.type().wireName())
            .reason(event.reason())
            .message(event.message())
            .source(new V1EventSource().component(component))
            .reportingComponent(component)
            .reportingInstance(instance)
            .firstTimestamp(
                event.firstTimestamp().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC))
            .lastTimestamp(
                event.lastTimestamp().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC))
            .count(event.count());
    // The answer is read as plain JSON: nothing of it is needed, and the model's strict reading
    // must not
    // turn a write that went through into a failure.
    client.execute(
        core.createNamespacedEvent(event.namespace(), body).buildCall(null), JsonObject.class);
  }

  private void patch(RecordedEvent event) throws ApiException {
    JsonObject body = new JsonObject();
    body.addProperty("count", event.count());
    body.addProperty(
        "lastTimestamp", event.lastTimestamp().truncatedTo(ChronoUnit.SECONDS).toString());
    body.addProperty("message", event.message());
    // A merge patch built by Gson: the message is escaped (client-java's legacy EventLogger formats
    // it into JSON raw).
    PatchUtils.patch(
        JsonObject.class,
        () ->
            core.patchNamespacedEvent(event.name(), event.namespace(), new V1Patch(body.toString()))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
  }
}
