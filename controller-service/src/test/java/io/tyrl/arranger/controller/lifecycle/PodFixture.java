package io.tyrl.arranger.controller.lifecycle;

import java.util.Optional;

/** Fluent builder of {@link PodView}s for tests; a new pod is Pending, not ready, unbound. */
final class PodFixture {

  private final String name;
  private PodPhase phase = PodPhase.PENDING;
  private boolean ready;
  private Optional<String> ip = Optional.empty();
  private Optional<String> node = Optional.empty();
  private boolean deleting;
  private Optional<String> reason = Optional.empty();

  private PodFixture(String name) {
    this.name = name;
  }

  static PodFixture pod(String name) {
    return new PodFixture(name);
  }

  /** Running, Ready, with an IP, on node-a: a healthy pod. */
  static PodFixture serving(String name) {
    return pod(name).running().ready().ip("10.0.0.1").on("node-a");
  }

  PodFixture running() {
    this.phase = PodPhase.RUNNING;
    return this;
  }

  PodFixture ready() {
    this.ready = true;
    return this;
  }

  PodFixture succeeded() {
    this.phase = PodPhase.SUCCEEDED;
    this.ready = false;
    return this;
  }

  PodFixture failed(String statusReason) {
    this.phase = PodPhase.FAILED;
    this.ready = false;
    this.reason = Optional.ofNullable(statusReason);
    return this;
  }

  PodFixture unknown() {
    this.phase = PodPhase.UNKNOWN;
    return this;
  }

  PodFixture ip(String value) {
    this.ip = Optional.of(value);
    return this;
  }

  PodFixture on(String value) {
    this.node = Optional.of(value);
    return this;
  }

  PodFixture deleting() {
    this.deleting = true;
    return this;
  }

  PodView build() {
    return new PodView(name, phase, ready, ip, node, deleting, reason);
  }
}
