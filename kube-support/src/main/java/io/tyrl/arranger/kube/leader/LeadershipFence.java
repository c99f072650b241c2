package io.tyrl.arranger.kube.leader;

/**
 * Asked right before every write a leader makes (a status patch, a pod create or delete, an Event):
 * a replica whose lease may already have passed to another must not write, even if it has not yet
 * noticed that it lost.
 */
@FunctionalInterface
public interface LeadershipFence {

  /** A replica that is alone by configuration: it may always write. */
  LeadershipFence UNFENCED = () -> true;

  boolean mayWrite();
}
