package io.tyrl.arranger.controller.lifecycle;

import java.util.Objects;

/** One entry of {@code spec.workerSets}. */
public record WorkerSetSpecView(String name, int counts, PodTemplateView template) {

  public WorkerSetSpecView {
    name = Objects.requireNonNullElse(name, "");
    template = Objects.requireNonNullElse(template, PodTemplateView.of());
  }
}
