package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Objects;

/**
 * One entry of {@code spec.workerSets}.
 *
 * @param counts as stored: a {@code long}, because kube-apiserver 1.20 does not enforce the CRD's
 *     {@code format: int32}; validation refuses any value outside the shared bounds before a slot
 *     is made for it
 */
public record WorkerSetSpecView(String name, long counts, PodTemplateView template) {

  public WorkerSetSpecView {
    name = Objects.requireNonNullElse(name, "");
    template = Objects.requireNonNullElse(template, PodTemplateView.of());
  }
}
