package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.tyrl.arranger.controller.lifecycle.EventType;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events on a TYJob. An Event is a courtesy to the user, not state: a failure to
 * record one is logged and otherwise ignored, so it never holds up a job.
 */
public final class JobEvents {

  public static final String COMPONENT = "arranger-controller";
  /** Longer messages are cut: they are meant for {@code kubectl describe}, and events are capped in size. */
  static final int MAX_MESSAGE_LENGTH = 1024;

  private static final Logger log = LoggerFactory.getLogger(JobEvents.class);

  private final CoreV1Api core;
  private final Clock clock;
  private final String instance;
  private final LeadershipFence fence;

  public JobEvents(CoreV1Api core, Clock clock, String instance, LeadershipFence fence) {
    this.fence = fence;
    this.core = core;
    this.clock = clock;
    this.instance = instance;
  }

  public void record(JobSnapshot job, EventType type, String reason, String message) {
    if (!fence.mayWrite()) {
      log.debug("event {} on TYJob {} not recorded: this replica may no longer write as leader", reason, job.key());
      return;
    }
    OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    String text = message.length() > MAX_MESSAGE_LENGTH ? message.substring(0, MAX_MESSAGE_LENGTH - 3) + "..." : message;
    CoreV1Event event = new CoreV1Event()
        .metadata(new V1ObjectMeta()
            // The same scheme as client-go's recorder: the object's name and a unique suffix.
            .name(job.name() + "." + Long.toHexString(now.toInstant().toEpochMilli()) + "."
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000)))
            .namespace(job.namespace()))
        .involvedObject(new V1ObjectReference()
            .apiVersion(ArrangerResources.API_VERSION)
            .kind(ArrangerResources.TYJOB_KIND)
            .namespace(job.namespace())
            .name(job.name())
            .uid(job.uid())
            .resourceVersion(job.resourceVersion()))
        .type(type.wireName())
        .reason(reason)
        .message(text)
        .source(new V1EventSource().component(COMPONENT))
        .reportingComponent(COMPONENT)
        .reportingInstance(instance)
        .firstTimestamp(now)
        .lastTimestamp(now)
        .count(1);
    try {
      core.createNamespacedEvent(job.namespace(), event).execute();
    } catch (ApiException e) {
      log.warn("could not record event {} on TYJob {} (HTTP {}): {}", reason, job.key(), e.getCode(),
          e.getCode() == 0 ? String.valueOf(e.getCause()) : e.getResponseBody());
    } catch (RuntimeException e) {
      log.warn("could not record event {} on TYJob {}", reason, job.key(), e);
    }
  }
}
