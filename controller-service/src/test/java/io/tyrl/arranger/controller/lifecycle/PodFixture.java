package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import java.util.Optional;

/** Fluent builder of {@link PodView}s for tests; a new pod is Pending, not ready, unbound. */
public final class PodFixture {

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

  public static PodFixture pod(String name) {
    return new PodFixture(name);
  }

  /** Running, Ready, with an IP, on node-a: a healthy pod. */
  public static PodFixture serving(String name) {
    return pod(name).running().ready().ip("10.0.0.1").on("node-a");
  }

  public PodFixture running() {
    this.phase = PodPhase.RUNNING;
    return this;
  }

  PodFixture ready() {
    this.ready = true;
    return this;
  }

  public PodFixture succeeded() {
    this.phase = PodPhase.SUCCEEDED;
    this.ready = false;
    return this;
  }

  public PodFixture failed(String statusReason) {
    this.phase = PodPhase.FAILED;
    this.ready = false;
    this.reason = Optional.ofNullable(statusReason);
    return this;
  }

  public PodFixture unknown() {
    this.phase = PodPhase.UNKNOWN;
    return this;
  }

  public PodFixture ip(String value) {
    this.ip = Optional.of(value);
    return this;
  }

  public PodFixture on(String value) {
    this.node = Optional.of(value);
    return this;
  }

  public PodFixture deleting() {
    this.deleting = true;
    return this;
  }

  public PodView build() {
    return new PodView(name, phase, ready, ip, node, deleting, reason);
  }
}
