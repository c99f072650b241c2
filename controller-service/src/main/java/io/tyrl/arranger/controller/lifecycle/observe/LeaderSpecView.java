package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Objects;

/** {@code spec.leader}. */
public record LeaderSpecView(String name, PodTemplateView template) {

  public LeaderSpecView {
    name = Objects.requireNonNullElse(name, "");
    template = Objects.requireNonNullElse(template, PodTemplateView.of());
  }
}
