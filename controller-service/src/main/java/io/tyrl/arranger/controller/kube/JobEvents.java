package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.InvolvedObject;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import java.time.Clock;

/**
 * Records core/v1 Events on a TYJob through the service's {@link EventRecorder} (kube-support), the
 * one the scheduler uses too: repeats are counted on one Event, similar ones aggregated, long
 * messages cut ({@code arranger.events.max-message-length}), writes fenced and asynchronous. An
 * Event is a courtesy to the user, not state: recording one never blocks or fails a reconcile.
 */
public final class JobEvents {

  public static final String COMPONENT = "arranger-controller";

  private final EventRecorder recorder;

  public JobEvents(EventRecorder recorder) {
    this.recorder = recorder;
  }

  /**
   * With a recorder of its own and the default settings (tests, tools); the service shares its
   * recorder.
   */
  public JobEvents(CoreV1Api core, Clock clock, String instance, LeadershipFence fence) {
    this(EventRecorder.standalone(core.getApiClient(), COMPONENT, instance, fence, clock));
  }

  public void record(JobSnapshot job, EventType type, String reason, String message) {
    recorder.record(involvedObject(job), type, reason, message);
  }

  static InvolvedObject involvedObject(JobSnapshot job) {
    return new InvolvedObject(
        ArrangerResources.API_VERSION,
        ArrangerResources.TYJOB_KIND,
        job.namespace(),
        job.name(),
        job.uid());
  }
}
