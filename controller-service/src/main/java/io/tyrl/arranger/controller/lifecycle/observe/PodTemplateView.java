package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.List;

/**
 * What the lifecycle needs to know of a leader or WorkerSet pod template: its containers, for
 * validation. The pod factory builds pods from the real template in the TYJob; this view never
 * replaces it.
 *
 * @param containers {@code spec.containers}
 * @param initContainers {@code spec.initContainers}
 */
public record PodTemplateView(List<ContainerView> containers, List<ContainerView> initContainers) {

  public PodTemplateView {
    containers = containers == null ? List.of() : List.copyOf(containers);
    initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
  }

  public static PodTemplateView of(ContainerView... containers) {
    return new PodTemplateView(List.of(containers), List.of());
  }
}
