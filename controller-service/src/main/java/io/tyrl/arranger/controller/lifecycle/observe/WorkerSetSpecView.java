package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Objects;

/**
 * One entry of {@code spec.workerSets}.
 *
 * @param counts as stored; validation refuses any value outside the shared bounds before a slot is
 *     made for it
 */
public record WorkerSetSpecView(String name, long counts, PodTemplateView template) {

  public WorkerSetSpecView {
    name = Objects.requireNonNullElse(name, "");
    template = Objects.requireNonNullElse(template, PodTemplateView.of());
  }
}
