package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import java.util.Objects;

/**
 * An immutable view of one TYJob, filled by the Kubernetes adapter from the stored object.
 *
 * @param generation {@code metadata.generation}, echoed into {@code status.observedGeneration}
 * @param scheduler the scheduler-owned status fields
 * @param status the controller-owned status fields as last written ({@link
 *     ControllerStatus#initial()} when the job has no status yet)
 */
public record JobView(
    String namespace,
    String name,
    long generation,
    JobSpecView spec,
    SchedulerStatusView scheduler,
    ControllerStatus status) {

  public JobView {
    namespace = Objects.requireNonNullElse(namespace, "");
    name = Objects.requireNonNullElse(name, "");
    Objects.requireNonNull(spec, "spec");
    scheduler = Objects.requireNonNullElse(scheduler, SchedulerStatusView.unscheduled());
    status = Objects.requireNonNullElse(status, ControllerStatus.initial());
  }
}
