package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.List;
import java.util.Optional;

/**
 * What the lifecycle needs to know of a leader or WorkerSet pod template: its containers, for
 * validation. The pod factory builds pods from the real template in the TYJob; this view never
 * replaces it.
 *
 * @param containers {@code spec.containers}
 * @param initContainers {@code spec.initContainers}
 * @param unreadable why the adapter could not read the template as a pod template at all (e.g. a
 *     field the pod API does not have), so that no pod could be built from it; empty when it could
 */
public record PodTemplateView(List<ContainerView> containers, List<ContainerView> initContainers, Optional<String> unreadable) {

  public PodTemplateView {
    containers = containers == null ? List.of() : List.copyOf(containers);
    initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
    unreadable = unreadable == null ? Optional.empty() : unreadable.filter(reason -> !reason.isBlank());
  }

  public PodTemplateView(List<ContainerView> containers, List<ContainerView> initContainers) {
    this(containers, initContainers, Optional.empty());
  }

  public static PodTemplateView of(ContainerView... containers) {
    return new PodTemplateView(List.of(containers), List.of(), Optional.empty());
  }
}
